// The types the public_membership kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { OrgConfig } from '../../config/types.js';
import type { DesiredObject, KindTypes } from '../../model/index.js';

/** The organisation's public members as read (one object per organisation: read.ts builds it from the list). */
export type ServerPublicMembers = Record<string, unknown> & { org: string; members: string[] };

/** What prepare learns, at plan time and again at apply (lower-cased names). */
export interface MembershipFacts {
  /** The token's own user and whether it is a site administrator. */
  self: string;
  admin: boolean;
  /** The organisation's members now (read only when the plan makes someone public); undefined: not known again at apply (an organisation the saved plan creates). */
  members: Set<string> | undefined;
  /** Members this plan adds to the organisation through its teams: user → the team changes that add them. */
  joining: Map<string, string[]>;
}

/** What the kind keeps for one run: the facts per organisation, and the section as written (for error places). */
export interface PublicMembershipRun {
  facts: Map<string, MembershipFacts>;
  declared: WeakMap<DesiredObject, string[]>;
}

/** What the kind is typed by: its section of the organisation's config, the members as read, the facts prepare learns, its state per run. */
export type PublicMembershipTypes = KindTypes<Pick<OrgConfig, 'public_members'>, ServerPublicMembers, MembershipFacts, PublicMembershipRun>;
