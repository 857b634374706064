/**
 * What the sandbox does not play, per release: the behaviour of the real server a rehearsal on it
 * (`forgeform plan --rehearse`) cannot show. Each entry names the releases that have the behaviour and
 * where that was read (src/sandbox/NOTES.md holds the longer account); `notPlayed(flavour)` lists those of
 * one release, in the rehearsal's output and docs/cli.md.
 */
import type { Availability } from './availability.js';
import { available } from './availability.js';
import type { Flavour } from './flavour.js';

export interface NotPlayed {
  what: string;
  releases: Availability;
  source: string;
}

const EVERY: Availability = { gitea: {}, forgejo: {} };

export const NOT_PLAYED: readonly NotPlayed[] = [
  {
    what: 'git content: a repository holds branch names only (no commits, files, pushes or mirror syncs)',
    releases: EVERY,
    source: 'src/sandbox/core/state.ts RepoRecord ("No git content: the sandbox keeps only the branch names")',
  },
  {
    what: 'hook deliveries, e-mail and notifications sent by a change (a hook is stored, never called)',
    releases: EVERY,
    source: 'src/sandbox/README.md (no outgoing traffic: loopback only)',
  },
  {
    what: 'blocked users (403 ErrBlockedUser/ErrBlockedByUser on a collaborator or member change)',
    releases: { gitea: { since: '1.22' }, forgejo: {} },
    source: 'src/sandbox/NOTES.md "Collaborators", Not played (Gitea 1.22+, Forgejo 7+)',
  },
  {
    what: "the access-table write of a collaborator's new level (the real server answers the collaboration's level until it recalculates; the copy always answers the recalculated one)",
    releases: { gitea: { until: '1.22' }, forgejo: {} },
    source: 'Gitea v1.21.11 models/repo/collaboration.go l.102–138 (ChangeCollaborationAccessMode); recalculated from v1.23.8 services/repository/collaboration.go l.63',
  },
];

/** What the release does that the sandbox does not play, one line each. */
export function notPlayed(flavour: Flavour): string[] {
  return NOT_PLAYED.filter((n) => available(flavour, n.releases)).map((n) => `not played by the sandbox: ${n.what}`);
}
