// The request floor: what a minimal plan must read, worked out from the forge's shape alone (how many
// objects each list holds), so that it can be set against what forgeform actually sent.

/** Gitea pages lists by at most 50; an empty list still costs its first page. */
export const PAGE = 50;
export const pages = (n) => Math.max(1, Math.ceil(n / PAGE));

/**
 * The preflight's reads (src/gitea/preflight.ts): `GET /version` tells a Gitea from something else at
 * the URL before anything is planned, and `GET /api/forgejo/v1/version` (which only Forgejo serves)
 * tells the forks apart. A documented exception to "reads the plan needs".
 */
export const PREFLIGHT_READS = 2;

/**
 * apply's lock (src/lock/lock.ts, docs/reliability.md "Two runs at once"). Its requests are needed: Gitea
 * keeps label and hook names apart from nothing, so two applies at once would each create the same one;
 * the lock is the only thing that stops the second. They are counted in the apply floor, but on a line of
 * their own (lockFloor), never folded into the forge's parts nor left over as excess, because what they
 * cost is set by time, not by the forge's shape:
 * - taking it: `POST /orgs` (the server refuses a second organisation of that name);
 * - giving it back: `GET /orgs/forgeform-lock` (is it still this run's? a lock taken over meanwhile is
 *   another run's and must not be deleted), then `DELETE /orgs/forgeform-lock`;
 * - renewing it, once a minute while it is held (a lock not renewed for 10 minutes is taken over as a dead
 *   run's): `GET` (still this run's?) then `PATCH` of its record.
 * The lock rests on no list, so none of its requests makes the client prove a list end (issue 21).
 */
export const LOCK_TAKE = 1;
/** plan's one look at the lock (src/lock/lock.ts lockNotice), on the lock's line of the reads. */
export const PLAN_LOCK_READS = 1;
const PLAN_LOCK_PART = "apply's lock";
export const LOCK_RELEASE = 2;
export const LOCK_RENEWAL = 2;
export const LOCK_RENEW_MS = 60_000;

/** The lock's requests in a request log (the benchmark forge creates no organisation: its one `POST /orgs` is the lock's). */
export function lockRequests(log) {
  const byMethod = {};
  for (const e of log) {
    if (e.path !== '/api/v1/orgs/forgeform-lock' && !(e.method === 'POST' && e.path === '/api/v1/orgs')) continue;
    byMethod[e.method] = (byMethod[e.method] ?? 0) + 1;
  }
  return { total: total(byMethod), byMethod, renewals: byMethod.PATCH ?? 0 };
}

/**
 * What the lock needed in a run of `wallMs`: taking and giving it back, and one renewal per minute held.
 * The log has no times, so the run's wall time (the lock is held for less) bounds the renewals: those sent
 * count up to ⌊wall / 1 min⌋, and any beyond would be excess.
 */
export function lockFloor(wallMs, renewalsSent) {
  const renewals = Math.min(renewalsSent, Math.floor(wallMs / LOCK_RENEW_MS));
  return { take: LOCK_TAKE, release: LOCK_RELEASE, renewals, reads: 1 + renewals, total: LOCK_TAKE + LOCK_RELEASE + LOCK_RENEWAL * renewals };
}

/**
 * The reads of a minimal plan, by part. Every part is one kind of list (or single GET) the plan cannot
 * do without; the comment says why it is needed and why no cheaper call exists.
 * @param shape see generateForge(): orgs, repos (with their collaborators), users, hooks, labelDeletes
 */
export function planFloor(shape) {
  const sum = (f) => shape.repos.reduce((n, r) => n + f(r), 0);
  const orgsWithLabelledIssues = new Set(shape.repos.filter((r) => r.chosenIssues > 0).map((r) => r.org));
  return {
    // "owner/*" globs: the owner's repository list, paged.
    'repository lists': shape.orgs.reduce((n, o) => n + pages(o.repos), 0),
    // GET /admin/users, paged: every user is compared.
    users: pages(shape.users),
    // One list per hook type: the list does not say whether a hook is a system or a default one.
    'admin hooks': pages(shape.hooks.system) + pages(shape.hooks.default),
    // GET …/labels per repository, paged.
    'repository labels': sum((r) => pages(r.labels)),
    // Issue label names resolve against the repository's and its organisation's labels.
    'organisation labels': shape.orgs.filter((o) => orgsWithLabelledIssues.has(o.name)).reduce((n, o) => n + pages(o.labels), 0),
    // GET /orgs/{org}/teams, paged: one list per organisation, shared by the team kind and the protections' team lists.
    teams: shape.orgs.reduce((n, o) => n + pages(o.teams ?? 0), 0),
    // A declared team's members and repositories: one list each (no list carries them), only where the config declares them.
    'team members and repositories': shape.orgs.reduce((n, o) => n + (o.teamLists ?? 0), 0),
    // GET …/collaborators, paged: one list per repository that declares collaborators.
    collaborators: sum((r) => (r.collaboratorsDeclared ? pages(r.collaborators) : 0)),
    // The list answers users without their permission (no release's does): one GET …/collaborators/{user}/permission
    // per collaborator the config declares and the server has; none for those to add or only to remove.
    'collaborator permissions': sum((r) => r.collaboratorPermissions ?? 0),
    // Only where a declared collaborator reads above its level at a level a team can give (read, write), in an
    // organisation's repository: GET …/teams once, then GET /teams/{id}/members/{user} per team at that level
    // until one has the user (src/kinds/collaborator/read.ts); none for collaborators in sync. The bench's
    // collaborators are in no team: 0 unless a shape says otherwise.
    'collaborator teams': sum((r) => r.collaboratorTeamReads ?? 0),
    // GET …/branch_protections returns every rule of a repository in one unpaged answer.
    'branch protections': shape.repos.length,
    // Chosen issues: one GET each, or the repository's issue list when that takes fewer pages
    // (DESIGN: never one GET per object when a list call can read them all).
    'chosen issues': sum((r) => (r.chosenIssues ? Math.min(r.chosenIssues, pages(r.issues)) : 0)),
    // A plan that deletes a label says how many issues carry it: one counted GET per deleted label.
    'label deletions (issue count)': shape.labelDeletes,
    // A default branch that changes: GET …/branches/{branch}, since Gitea takes only a branch that exists (else it
    // answers 200 and keeps the old one: src/kinds/repo_settings/branch.ts). None where it does not change.
    'default branches': sum((r) => r.defaultBranchChanges ?? 0),
    // Team members and repositories added that no list the plan reads holds (src/kinds/team/references.ts):
    // GET /users/{name} without a users section, GET /repos/{org}/{name} without an "org/*" glob. The bench
    // declares its users and globs every organisation: none.
    'added team references': shape.orgs.reduce((n, o) => n + (o.teamReferenceReads ?? 0), 0),
    // A user that policy.prune would delete (without purge_users): GET /users/{name}/repos?limit=1, since Gitea
    // refuses to delete a user who owns a repository (src/kinds/user/owned.ts). The bench prunes no user.
    'pruned users': shape.usersPruned ?? 0,
    // Documented exception: the preflight.
    preflight: PREFLIGHT_READS,
    // `GET /orgs/forgeform-lock`, once: a plan made while an apply writes says so (the server may be
    // half-applied). No list holds the lock's record. apply takes the lock instead (lockFloor).
    [PLAN_LOCK_PART]: PLAN_LOCK_READS,
  };
}

/**
 * The reads of a minimal apply (without a plan file): the plan's, plus two documented exceptions,
 * added to the part whose list they read again (`exceptions` says how many of each):
 * - after creating labels or admin hooks, the list of each scope where it created them is read again
 *   (src/apply/concurrent.ts): Gitea does not keep label or hook names unique, and this read is the
 *   only way to see that another run created the same name at the same time;
 * - before the first write under a repository (`repos/OWNER/NAME/`), an organisation (`orgs/ORG/`: a team
 *   create) or `admin/`, the page after each list there that ended because its full pages added up exactly
 *   to X-Total-Count (src/gitea/paging.ts): the proof that what the plan decided from an absence rests on
 *   the whole list.
 * apply's lock is counted apart (lockFloor): what it needs depends on how long the run takes.
 * @param before the shape the plan reads, after the shape once applied (the re-read sees it)
 */
export function applyReadsFloor(before, after) {
  const parts = planFloor(before);
  // apply does not look at the lock as plan does: it takes it (its requests: lockFloor).
  delete parts[PLAN_LOCK_PART];
  const exact = (n) => n > 0 && n % PAGE === 0;
  const exceptions = { 're-read after creates': 0, 'proof of a list end': 0 };
  const add = (part, exception, n) => {
    parts[part] += n;
    exceptions[exception] += n;
  };
  for (const [i, r] of before.repos.entries()) {
    if (r.labelsCreated) add('repository labels', 're-read after creates', pages(after.repos[i].labels));
    if (r.writes && exact(r.labels)) add('repository labels', 'proof of a list end', 1);
    if (r.writes && r.collaboratorsDeclared && exact(r.collaborators)) add('collaborators', 'proof of a list end', 1);
  }
  // A team create (POST orgs/ORG/teams) is a write under orgs/ORG/: the lists read there (the repository
  // list of an "ORG/*" glob, the team list) that ended on X-Total-Count's word are proven first.
  // A team delete or PATCH (`teams/{id}`, addressed by id) rests on its organisation's team list alone
  // (Op.restsOn): that list is proven first, the repository list beside it is not.
  for (const o of before.orgs) {
    if (o.teamCreates && exact(o.repos)) add('repository lists', 'proof of a list end', 1);
    if ((o.teamCreates || o.teamDeletes) && exact(o.teams ?? 0)) add('teams', 'proof of a list end', 1);
  }
  if (before.hooksCreated) add('admin hooks', 're-read after creates', pages(after.hooks.system) + pages(after.hooks.default));
  if (before.adminWrites) {
    add('admin hooks', 'proof of a list end', Number(exact(before.hooks.system)) + Number(exact(before.hooks.default)));
    if (exact(before.users)) add('users', 'proof of a list end', 1);
  }
  return { parts, exceptions };
}

/** Which part of planFloor() a GET belongs to, by its path (and query); undefined: outside the floor. */
const GET_PARTS = [
  [/^\/api\/v1\/version$|^\/api\/forgejo\/v1\/version$/, 'preflight'],
  [/^\/api\/v1\/(orgs|users)\/[^/]+\/repos$/, (q) => (String(q.limit) === '1' ? 'pruned users' : 'repository lists')],
  [/^\/api\/v1\/admin\/users$/, 'users'],
  [/^\/api\/v1\/admin\/hooks$/, 'admin hooks'],
  [/^\/api\/v1\/repos\/[^/]+\/[^/]+\/labels$/, 'repository labels'],
  [/^\/api\/v1\/orgs\/[^/]+\/labels$/, 'organisation labels'],
  [/^\/api\/v1\/orgs\/[^/]+\/teams$/, 'teams'],
  [/^\/api\/v1\/orgs\/forgeform-lock$/, "apply's lock"],
  [/^\/api\/v1\/teams\/\d+\/(members|repos)$/, 'team members and repositories'],
  [/^\/api\/v1\/repos\/[^/]+\/[^/]+\/collaborators$/, 'collaborators'],
  [/^\/api\/v1\/repos\/[^/]+\/[^/]+\/collaborators\/[^/]+\/permission$/, 'collaborator permissions'],
  [/^\/api\/v1\/repos\/[^/]+\/[^/]+\/teams$|^\/api\/v1\/teams\/\d+\/members\/[^/]+$/, 'collaborator teams'],
  [/^\/api\/v1\/repos\/[^/]+\/[^/]+\/branch_protections$/, 'branch protections'],
  [/^\/api\/v1\/repos\/[^/]+\/[^/]+\/branches\/[^/]+$/, 'default branches'],
  [/^\/api\/v1\/repos\/[^/]+\/[^/]+\/issues\/\d+$/, 'chosen issues'],
  [/^\/api\/v1\/repos\/[^/]+\/[^/]+\/issues$/, (q) => (q.labels ? 'label deletions (issue count)' : 'chosen issues')],
];

/** The GETs of a request log sorted into the floor's parts; the rest under their own path. */
export function classifyReads(log) {
  const out = {};
  for (const e of log) {
    if (e.method !== 'GET') continue;
    const hit = GET_PARTS.find(([re]) => re.test(e.path));
    const part = hit ? (typeof hit[1] === 'function' ? hit[1](e.query ?? {}) : hit[1]) : `other: GET ${e.path.replace(/^\/api\/v1/, '')}`;
    out[part] = (out[part] ?? 0) + 1;
  }
  return out;
}

/** The per-object way (the Terraform providers): one GET per declared object to refresh it. */
export function perObjectReads(declared) {
  return Object.values(declared).reduce((a, b) => a + b, 0);
}

export const total = (parts) => Object.values(parts).reduce((a, b) => a + b, 0);

/** ceil(requests / concurrency) round trips of `latency` ms: the wall time of requests that never wait on each other. */
export const timeFloorMs = (requests, concurrency, latencyMs) => Math.ceil(requests / concurrency) * latencyMs;
