/** Seed key `orgs`: organisations with their owners and members; teams and the rest are other domains' `orgs[]` keys (README.md). */
import type { SeedContext } from '../../core/domain.js';
import { isFailure } from '../../core/failure.js';
import { domains } from '../../core/registry.js';
import { list, obj, oneOf, requireUser, SeedError, str, strings, VISIBILITIES } from '../../core/seed-shape.js';
import type { UserRecord } from '../../core/state.js';
import { addOwner } from '../teams/service.js';
import { createOrg } from './service.js';

export interface SeedOrg {
  name: string;
  full_name?: string;
  email?: string;
  description?: string;
  website?: string;
  location?: string;
  /** `public` (default) | `limited` | `private`. */
  visibility?: string;
  /** Members of the Owners team; default: the first site admin. */
  owners?: string[];
  /** Members outside any team. */
  members?: string[];
}

/** Organisations; each domain's `orgs[]` keys (teams, labels …) load as the organisation is created. */
export function loadOrgsSeed(cx: SeedContext): void {
  const { state } = cx;
  const nested = domains().flatMap((d) => d.seed?.org ?? []);
  const admin = cx.admin();
  list(cx.top.orgs, 'orgs').forEach((og, i) => {
    const p = `orgs[${i}]`;
    const o = obj(og, p, ['name', 'full_name', 'email', 'description', 'website', 'location', 'visibility', 'owners', 'members', ...nested.flatMap((n) => n.keys)]);
    const owners = strings(o.owners, `${p}.owners`).map((n, j) => requireUser(state, n, `${p}.owners[${j}]`));
    const creator = owners[0] ?? admin;
    const res = createOrg(state, { kind: 'user', user: creator, id: creator.id, name: creator.name }, {
      username: str(o.name, `${p}.name`, true)!,
      fullName: str(o.full_name, `${p}.full_name`),
      email: str(o.email, `${p}.email`),
      description: str(o.description, `${p}.description`),
      website: str(o.website, `${p}.website`),
      location: str(o.location, `${p}.location`),
      visibility: oneOf(o.visibility, `${p}.visibility`, VISIBILITIES),
    });
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
    const org = res;
    const addMember = (u: UserRecord): void => {
      if (!org.memberIds.includes(u.id)) org.memberIds.push(u.id);
    };
    for (const u of owners.slice(1)) {
      addOwner(state, org, u.id);
      addMember(u);
    }
    strings(o.members, `${p}.members`).forEach((n, j) => addMember(requireUser(state, n, `${p}.members[${j}]`)));
    // The other domains' keys (`teams`, `labels` …), in registry order.
    for (const n of nested) n.load(cx, org, o, p);
  });
}
