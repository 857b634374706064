import { apiPath } from '../../gitea/path.js';
import type { GiteaClient } from '../../gitea/client.js';
import type { Shape } from '../../gitea/answer.js';

/** A runner as a list answers it, its shape checked (read.ts). */
export type ListedRunner = Record<string, unknown> & { id: number; name: string };

/** A runner that is not the server's own: a repository's, an organisation's or a user's, and where it belongs. */
export interface ScopedRunner {
  id: number;
  name: string;
  /** "repository alice/ci", "organisation acme", "user bob" (Forgejo: the ids it answers). */
  where: string;
}

/** Gitea's runner lists: an object around the runners, no paging headers (`routers/api/v1/shared/runners.go`). */
const isPage = (body: unknown): body is { runners?: unknown[] | null; total_count?: unknown } => typeof body === 'object' && body !== null;

export function listGiteaRunners(client: GiteaClient, path: string, object: string, opts: { shape: Shape; query?: Record<string, string> }): Promise<ListedRunner[]> {
  return client.listWrapped<ListedRunner>(
    path,
    { object, shape: opts.shape, ...(opts.query ? { query: opts.query } : {}) },
    (body) => (isPage(body) ? { items: body.runners, total: body.total_count } : { items: undefined, total: undefined }),
    'total_count',
  );
}

/** The first of `keys` that holds a string in an answered object. */
function nameOf(o: unknown, ...keys: string[]): string[] {
  if (typeof o !== 'object' || o === null) return [];
  const found = keys.map((k) => Reflect.get(o, k)).find((v) => typeof v === 'string');
  return typeof found === 'string' ? [found] : [];
}

/**
 * Forgejo 15 answers each runner's scope: `owner_id` and `repo_id`, both 0 for the instance's own (v15.0.3
 * `modules/structs/repo_actions.go` l.61–85, `services/convert/convert.go` l.545–572; v15.0.0 l.66–71). A runner
 * without them is not taken for a global one (fail closed).
 */
export function forgejoScope(r: ListedRunner): string | undefined {
  const owner = r.owner_id;
  const repo = r.repo_id;
  if (owner === 0 && repo === 0) return undefined;
  if (typeof repo === 'number' && repo > 0) return `repository #${repo}`;
  if (typeof owner === 'number' && owner > 0) return `user or organisation #${owner}`;
  return 'an unknown scope (the server did not say)';
}

/**
 * Where each runner of Gitea's admin list that is not global belongs, by id. Gitea's runner answer has no scope
 * (`ActionRunner`: id, name, status, busy, ephemeral, labels: v1.24.7 and v1.25.4 `modules/structs/repo_actions.go`
 * l.145–152 / l.194–201; upstream main l.194–202 adds only `disabled`), and no list holds the global runners alone:
 * the admin list calls `shared.ListRunners(ctx, 0, 0)` (`routers/api/v1/admin/runners.go` l.57; main l.48), whose
 * `FindRunnerOptions` then filters nothing (`models/actions/runner.go` l.197–221; main l.208–232), so it holds every
 * user's, organisation's and repository's runners too. The scoped lists are then the only witness of a runner's
 * scope: `orgs/{org}/actions/runners` (`owner_id = org`), `repos/{o}/{r}/actions/runners` (`repo_id = repo`) and
 * `user/actions/runners` (`owner_id = doer`, read for each user with sudo: `routers/api/v1/api.go` v1.25.4 l.108–136),
 * which exist wherever the admin list does (Gitea 1.24+). An owner's repositories come from `users/{u}/repos` and
 * `orgs/{o}/repos`, which list private ones too for a signed-in caller and keep every one for a site administrator
 * (`listUserRepos`, v1.25.4 `routers/api/v1/user/repo.go` l.20–52, `ListOrgRepos` l.139–141). That costs the lists of organisations and users, and per
 * organisation and per user its runners and its repositories, and per repository its runners: read only when the
 * admin list has a runner at all. (Forgejo answers the scope in the admin list itself: forgejoScope, one request.)
 */
export async function giteaScopes(client: GiteaClient, shape: Shape): Promise<Map<number, string>> {
  const [orgs, users] = await Promise.all([client.list('admin/orgs', { object: 'organisations' }), client.list('admin/users', { object: 'users' })]);
  const orgNames = orgs.flatMap((o) => nameOf(o, 'username', 'name'));
  const userNames = users.flatMap((u) => nameOf(u, 'login', 'username'));
  const found = new Map<number, string>();
  const note = (runners: ListedRunner[], where: string) => runners.forEach((r) => found.set(r.id, where));
  const ofRepos = async (owner: string, reposPath: string) => {
    const repos = (await client.list(reposPath, { object: `the repositories of ${owner}` })).flatMap((r) => nameOf(r, 'name'));
    await Promise.all(
      repos.map(async (repo) => note(await listGiteaRunners(client, apiPath('repos', owner, repo, 'actions', 'runners'), `the runners of ${owner}/${repo}`, { shape }), `repository ${owner}/${repo}`)),
    );
  };
  await Promise.all([
    ...orgNames.map(async (org) => {
      note(await listGiteaRunners(client, apiPath('orgs', org, 'actions', 'runners'), `the runners of organisation ${org}`, { shape }), `organisation ${org}`);
      await ofRepos(org, apiPath('orgs', org, 'repos'));
    }),
    ...userNames.map(async (user) => {
      note(await listGiteaRunners(client, 'user/actions/runners', `the runners of user ${user}`, { shape, query: { sudo: user } }), `user ${user}`);
      await ofRepos(user, apiPath('users', user, 'repos'));
    }),
  ]);
  return found;
}
