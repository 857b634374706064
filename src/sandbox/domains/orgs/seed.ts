/** Seed key `orgs`: organisations with their owners, members and teams (README.md). */
import type { SeedContext } from '../../core/domain.js';
import { isFailure } from '../../core/failure.js';
import { domains } from '../../core/registry.js';
import { bool, list, obj, oneOf, requireUser, SeedError, str, strings, VISIBILITIES } from '../../core/seed-shape.js';
import type { UserRecord } from '../../core/state.js';
import { createOrg } from './service.js';

export interface SeedTeam {
  name: string;
  /** `read` (default) | `write` | `admin`. */
  permission?: string;
  description?: string;
  members?: string[];
  /** Repository names (without the owner); omitted = every repository of the organisation. */
  repos?: string[];
  includes_all_repositories?: boolean;
}

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
  teams?: SeedTeam[];
}

/** Organisations; each domain's `orgs[]` keys (labels …) load as the organisation is created. */
export function loadOrgsSeed(cx: SeedContext): void {
  const { state } = cx;
  const nested = domains().flatMap((d) => d.seed?.org ?? []);
  const admin = cx.admin();
  list(cx.top.orgs, 'orgs').forEach((og, i) => {
    const p = `orgs[${i}]`;
    const o = obj(og, p, ['name', 'full_name', 'email', 'description', 'website', 'location', 'visibility', 'owners', 'members', 'teams', ...nested.flatMap((n) => n.keys)]);
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
    const ownersTeam = state.teamsOfOrg(org.id).find((t) => t.permission === 'owner')!;
    const addMember = (u: UserRecord): void => {
      if (!org.memberIds.includes(u.id)) org.memberIds.push(u.id);
    };
    for (const u of owners.slice(1)) {
      if (!ownersTeam.memberIds.includes(u.id)) ownersTeam.memberIds.push(u.id);
      addMember(u);
    }
    strings(o.members, `${p}.members`).forEach((n, j) => addMember(requireUser(state, n, `${p}.members[${j}]`)));
    list(o.teams, `${p}.teams`).forEach((t, j) => {
      const tp = `${p}.teams[${j}]`;
      const to = obj(t, tp, ['name', 'permission', 'description', 'members', 'repos', 'includes_all_repositories']);
      const name = str(to.name, `${tp}.name`, true)!;
      if (state.teamByName(org.id, name)) throw new SeedError(`${tp}.name: team ${JSON.stringify(name)} already exists in ${org.name}`);
      const members = strings(to.members, `${tp}.members`).map((n, k) => requireUser(state, n, `${tp}.members[${k}]`));
      members.forEach(addMember);
      const repos = to.repos === undefined ? undefined : strings(to.repos, `${tp}.repos`);
      const team = {
        id: state.nextId('team'),
        orgId: org.id,
        name,
        description: str(to.description, `${tp}.description`) ?? '',
        permission: oneOf(to.permission, `${tp}.permission`, ['read', 'write', 'admin'] as const) ?? 'read',
        includesAllRepositories: bool(to.includes_all_repositories, `${tp}.includes_all_repositories`) ?? repos === undefined,
        repoIds: [] as number[],
        memberIds: members.map((m) => m.id),
      };
      state.data.teams.push(team);
      // Team repositories, once every repository exists.
      if (repos) {
        cx.afterRepos.push(() =>
          repos.forEach((name, k) => {
            const repo = state.repoByName(org.id, name);
            if (!repo) throw new SeedError(`${tp}.repos[${k}]: no repository ${org.name}/${name} in the seed`);
            team.repoIds.push(repo.id);
          }),
        );
      }
    });
    for (const n of nested) n.load(cx, org, o, p);
  });
}
