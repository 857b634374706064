/** Seed key `orgs[].teams`: an organisation's teams, with their members and repositories (README.md). */
import type { NestedSeed } from '../../core/domain.js';
import { bool, list, obj, oneOf, requireUser, SeedError, str, strings } from '../../core/seed-shape.js';
import type { OrgRecord } from '../../core/state.js';
import { teamByName } from './records.js';
import { createTeam } from './service.js';

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

/** Team members become members of the organisation; team repositories are found once every repository exists. */
export const orgTeamsSeed: NestedSeed<OrgRecord> = {
  keys: ['teams'],
  load(cx, org, entry, p) {
    const { state } = cx;
    list(entry.teams, `${p}.teams`).forEach((t, j) => {
      const tp = `${p}.teams[${j}]`;
      const to = obj(t, tp, ['name', 'permission', 'description', 'members', 'repos', 'includes_all_repositories']);
      const name = str(to.name, `${tp}.name`, true)!;
      if (teamByName(state, org.id, name)) throw new SeedError(`${tp}.name: team ${JSON.stringify(name)} already exists in ${org.name}`);
      const members = strings(to.members, `${tp}.members`).map((n, k) => requireUser(state, n, `${tp}.members[${k}]`));
      for (const m of members) if (!org.memberIds.includes(m.id)) org.memberIds.push(m.id);
      const repos = to.repos === undefined ? undefined : strings(to.repos, `${tp}.repos`);
      const team = createTeam(state, org, {
        name,
        description: str(to.description, `${tp}.description`) ?? '',
        permission: oneOf(to.permission, `${tp}.permission`, ['read', 'write', 'admin'] as const) ?? 'read',
        includesAllRepositories: bool(to.includes_all_repositories, `${tp}.includes_all_repositories`) ?? repos === undefined,
        memberIds: members.map((m) => m.id),
      });
      if (!repos) return;
      cx.afterRepos.push(() =>
        repos.forEach((repoName, k) => {
          const repo = state.repoByName(org.id, repoName);
          if (!repo) throw new SeedError(`${tp}.repos[${k}]: no repository ${org.name}/${repoName} in the seed`);
          team.repoIds.push(repo.id);
        }),
      );
    });
  },
};
