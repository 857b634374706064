/**
 * A copy of a live server's objects, for `forgeform plan --rehearse` (issue 30): from the answers the
 * plan's own reads received (no second pass over the server), a seed of the same objects, loaded through
 * the same create functions as the API (src/sandbox/seed.ts), then the settings no seed key carries sent
 * through the copy's own API (`PATCH` of repositories, organisations and teams), as the release stores
 * them. The copy plays the release the server runs (`flavour`).
 *
 * What the answers cannot give is absent on both sides and named: write-only values (the copy's secrets
 * hold a placeholder, its hooks no secret: the rehearsal's limits name the changes that send one), and
 * answers of paths this module does not read (`notCopied`). Issues the plan read keep their numbers (the requests name them so). Ids are the copy's own: requests that name an object by id are built again
 * against the copy, as `apply PLANFILE` does against the server.
 */
import { randomBytes } from 'node:crypto';
import { parseFlavour, startSandbox, type Flavour, type Sandbox } from './index.js';
import { hasQuirk } from './flavours/releases.js';
import { buildState, type SeedFile } from './seed.js';
import type { FieldDef } from './http/options.js';
import { CreateBranchProtectionOption } from './domains/branch-protections/options.js';
import { CreateTagProtectionOption } from './domains/tag-protections/options.js';
import { EditRepoOption } from './domains/repos/options.js';
import { EditOrgOption } from './domains/orgs/options.js';
import { EditTeamOption } from './domains/teams/options.js';
import { ISSUE_EVENTS, PULL_EVENTS } from './domains/hooks/service.js';

/** A 2xx answer to a GET the plan sent (src/gitea/client.ts ReadAnswer). */
export interface CopiedAnswer {
  path: string;
  query: Record<string, string | number | boolean | undefined>;
  forgejoApi: boolean;
  data: unknown;
}

export interface ServerCopy {
  sandbox: Sandbox;
  /** What the copy does not hold, said in the rehearsal's limits (paths the copy does not read, write-only values). */
  notCopied: string[];
}

type Obj = Record<string, unknown>;
type Seeded = NonNullable<SeedFile['repos']>[number];
type SeededOrg = NonNullable<SeedFile['orgs']>[number];

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const s = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const b = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
/** Only the keys an option of the API binds (the rest of an answer: ids, urls, dates). */
const only = (opt: { fields: readonly FieldDef[] }, o: Obj): Obj => Object.fromEntries(opt.fields.flatMap((f) => (o[f.json] === undefined ? [] : [[f.json, o[f.json]]])));
/** The placeholder a copied secret holds: its value is write-only, never read, so never compared. */
const SECRET_PLACEHOLDER = 'forgeform-rehearsal-placeholder';

/**
 * Whether a path reads apply's lock (src/lock/lock.ts: `GET orgs/{lock}`, and the look-ups that judge a lock found):
 * the lock is no object of the server's configuration, so the copy holds none. Names compare lower-cased, as Gitea's.
 */
const isLockPath = (path: string, lock: string): boolean => {
  const [first, name] = path.split('/');
  return (first === 'orgs' || first === 'users') && decodeURIComponent(name ?? '').toLowerCase() === lock.toLowerCase();
};

/** Every answer of one path (a list's pages together), by path without its page and limit; the lock's own reads left out. */
function byPath(answers: CopiedAnswer[], lock: string): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const a of answers) {
    if (a.forgejoApi) continue;
    const bare = a.path.replace(/^\/+/, '').split('?')[0]!;
    if (isLockPath(bare, lock)) continue;
    // Admin hooks are listed by type: which list a hook came from is what makes it a system or a default one.
    const path = bare === 'admin/hooks' && a.query.type !== undefined ? `${bare}?type=${String(a.query.type)}` : bare;
    const got = out.get(path) ?? [];
    if (Array.isArray(a.data)) got.push(...a.data);
    else if (isObj(a.data) && Array.isArray(a.data.runners)) got.push(...(a.data.runners as unknown[]));
    else got.push(a.data);
    out.set(path, got);
  }
  return out;
}

/** The rules of the copy: which answers make which seed entries. */
interface Builder {
  seed: Required<Pick<SeedFile, 'users' | 'orgs' | 'repos' | 'hooks'>> & SeedFile;
  users: Map<string, NonNullable<SeedFile['users']>[number]>;
  orgs: Map<string, SeededOrg>;
  repos: Map<string, Seeded>;
  /** Team id (live) → its organisation and name. */
  teams: Map<string, { org: string; name: string }>;
  /** Requests sent to the copy once seeded: the settings no seed key carries. */
  patches: { path: string; body: Obj }[];
  used: Set<string>;
  /** Every path answered. */
  paths: Map<string, unknown[]>;
  flavour: Flavour;
  /** apply's lock (policy.apply_lock): never copied, even from a list of every organisation. */
  lock: string;
  /** Where the copy holds an object otherwise than the server (said in the rehearsal's limits). */
  approximated: string[];
}

function user(bd: Builder, u: Obj): void {
  const login = s(u.login) ?? s(u.username);
  if (!login || bd.users.has(login.toLowerCase())) return;
  const entry = {
    username: login,
    email: s(u.email) || `${login}@example.com`,
    admin: b(u.is_admin) ?? false,
    ...(s(u.full_name) ? { full_name: s(u.full_name) } : {}),
    ...(b(u.active) !== undefined ? { active: b(u.active) } : {}),
    ...(b(u.prohibit_login) !== undefined ? { prohibit_login: b(u.prohibit_login) } : {}),
    ...(b(u.restricted) !== undefined ? { restricted: b(u.restricted) } : {}),
    ...(s(u.visibility) ? { visibility: s(u.visibility) } : {}),
    ...(s(u.website) ? { website: s(u.website) } : {}),
    ...(s(u.location) ? { location: s(u.location) } : {}),
    ...(s(u.description) ? { description: s(u.description) } : {}),
  };
  bd.users.set(login.toLowerCase(), entry);
  bd.seed.users.push(entry);
}

function org(bd: Builder, o: Obj): SeededOrg | undefined {
  const name = s(o.username) ?? s(o.name);
  if (!name || name.toLowerCase() === bd.lock.toLowerCase()) return undefined;
  const known = bd.orgs.get(name.toLowerCase());
  if (known) return known;
  const entry: SeededOrg = {
    name,
    ...(s(o.full_name) ? { full_name: s(o.full_name) } : {}),
    ...(s(o.email) ? { email: s(o.email) } : {}),
    ...(s(o.description) ? { description: s(o.description) } : {}),
    ...(s(o.website) ? { website: s(o.website) } : {}),
    ...(s(o.location) ? { location: s(o.location) } : {}),
    ...(s(o.visibility) ? { visibility: s(o.visibility) } : {}),
  };
  bd.orgs.set(name.toLowerCase(), entry);
  bd.seed.orgs.push(entry);
  const edit = only(EditOrgOption, o);
  if (Object.keys(edit).length) bd.patches.push({ path: `orgs/${encodeURIComponent(name)}`, body: edit });
  return entry;
}

function repo(bd: Builder, r: Obj): Seeded | undefined {
  const full = s(r.full_name);
  if (!full) return undefined;
  const known = bd.repos.get(full.toLowerCase());
  if (known) return known;
  const owner = isObj(r.owner) ? r.owner : {};
  const ownerName = full.split('/')[0]!;
  if (!bd.orgs.has(ownerName.toLowerCase()) && !bd.users.has(ownerName.toLowerCase())) user(bd, { ...owner, login: ownerName });
  const entry: Seeded = {
    name: full,
    ...(s(r.description) ? { description: s(r.description) } : {}),
    ...(s(r.website) ? { website: s(r.website) } : {}),
    private: b(r.private) ?? false,
    template: b(r.template) ?? false,
    ...(s(r.default_branch) ? { default_branch: s(r.default_branch) } : {}),
    empty: b(r.empty) ?? false,
    ...(Array.isArray(r.topics) ? { topics: r.topics.filter((t): t is string => typeof t === 'string') } : {}),
    ...(b(r.mirror) && s(r.original_url) ? { mirror: { from: s(r.original_url)!, ...(s(r.mirror_interval) ? { interval: s(r.mirror_interval) } : {}) } } : {}),
  };
  bd.repos.set(full.toLowerCase(), entry);
  bd.seed.repos.push(entry);
  const { archived, ...edit } = only(EditRepoOption, r);
  delete edit.name;
  if (Object.keys(edit).length) bd.patches.push({ path: `repos/${full}`, body: edit });
  if (archived === true) bd.patches.push({ path: `repos/${full}`, body: { archived: true } });
  return entry;
}

/**
 * An answer's events as a create takes them: `issues` (or `pull_request`) alone in an answer is the group's own event,
 * which a create spells `issues_only`: `issues` there selects the whole group (domains/hooks/service.ts updateHookEvents).
 */
function createEvents(events: unknown): string[] {
  const given = Array.isArray(events) ? events.filter((e): e is string => typeof e === 'string') : [];
  const alone = (group: string, members: readonly string[]) => given.includes(group) && !members.every((m) => given.includes(m));
  return given.map((e) => (e === 'issues' && alone('issues', ISSUE_EVENTS) ? 'issues_only' : e === 'pull_request' && alone('pull_request', PULL_EVENTS) ? 'pull_request_only' : e));
}

function hook(h: Obj, system?: boolean): Record<string, unknown> {
  const config: Obj = isObj(h.config) ? { ...h.config } : {};
  if (system !== undefined) config.is_system_webhook = String(system);
  return {
    type: s(h.type) ?? 'gitea',
    config,
    events: createEvents(h.events),
    active: b(h.active) ?? true,
    ...(s(h.branch_filter) !== undefined ? { branch_filter: s(h.branch_filter) } : {}),
    ...(s(h.authorization_header) ? { authorization_header: s(h.authorization_header) } : {}),
    ...(s(h.name) ? { name: s(h.name) } : {}),
  };
}

type SeededIssue = NonNullable<Seeded['issues']>[number];

/**
 * An issue as answered (repos/{o}/{r}/issues, …/issues/{n}), seeded with its number, so that the plan's requests
 * (by number) find it in the copy. What it refers to is copied with it: its labels (by the list the answer's url
 * names, the repository's or its organisation's) and its milestone where the plan read no list of them, its assignees.
 */
function issue(bd: Builder, r: Seeded, owner: string, i: Obj): SeededIssue[] {
  const number = typeof i.number === 'number' ? i.number : undefined;
  if (number === undefined || !s(i.title)) return [];
  if (isObj(i.pull_request)) bd.approximated.push(`${r.name}#${number} is a pull request on the server: the copy holds an issue in its place (the sandbox plays no git content)`);
  const labels = (Array.isArray(i.labels) ? i.labels.filter(isObj) : []).flatMap((l) => (s(l.name) ? [issueLabel(bd, r, owner, l)] : []));
  const assignees = (Array.isArray(i.assignees) ? i.assignees.filter(isObj) : []).flatMap((u) => (s(u.login) ? (user(bd, u), [s(u.login)!]) : []));
  const ms = isObj(i.milestone) ? i.milestone : undefined;
  if (ms && s(ms.title) && !r.milestones?.some((x) => x.title === s(ms.title))) (r.milestones ??= []).push({ title: s(ms.title)!, ...(s(ms.state) ? { state: s(ms.state) } : {}), ...(s(ms.description) ? { description: s(ms.description) } : {}) });
  return [{
    number,
    ...(typeof i.content_version === 'number' ? { content_version: i.content_version } : {}),
    title: s(i.title)!,
    ...(s(i.body) ? { body: s(i.body) } : {}),
    state: s(i.state) === 'closed' ? 'closed' : 'open',
    ...(labels.length ? { labels } : {}),
    ...(assignees.length ? { assignees } : {}),
    ...(ms && s(ms.title) ? { milestone: s(ms.title) } : {}),
    ...(s(i.due_date) ? { due_date: s(i.due_date) } : {}),
    ...(s(i.ref) ? { ref: s(i.ref) } : {}),
  }];
}

/** An issue's label, by name: the copied one of its list (an organisation's where its url says so), else added to that list. */
function issueLabel(bd: Builder, r: Seeded, owner: string, l: Obj): string {
  const name = s(l.name)!;
  const ofOrg = /\/orgs\/[^/]+\/labels\/\d+$/.test(s(l.url) ?? '');
  const at = (ofOrg ? bd.orgs.get(owner.toLowerCase()) : undefined) ?? r;
  // A seed names an issue's labels, the repository's first: an organisation's label that a repository's shares its name with is the repository's in the copy.
  if (ofOrg && r.labels?.some((x) => x.name === name)) bd.approximated.push(`an issue of ${r.name} carries the organisation's label "${name}", and the repository has one of that name: the copy's issue carries the repository's`);
  if (at && !at.labels?.some((x) => x.name === name)) (at.labels ??= []).push({ name, color: s(l.color) ?? 'ffffff', ...(s(l.description) ? { description: s(l.description) } : {}), exclusive: b(l.exclusive) ?? false, is_archived: b(l.is_archived) ?? false });
  return name;
}

/** What one read path adds: `m` is the path's match, `data` its answers. */
type Rule = [RegExp, (bd: Builder, m: (string | undefined)[], data: Obj[]) => void];

const repoOf = (bd: Builder, m: (string | undefined)[]): Seeded | undefined => bd.repos.get(`${m[1]}/${m[2]}`.toLowerCase());
const orgOf = (bd: Builder, m: (string | undefined)[]): SeededOrg | undefined => bd.orgs.get(m[1]!.toLowerCase());
const scopeOf = (bd: Builder, m: (string | undefined)[]): (SeededOrg | Seeded) | undefined => (m[2] === undefined ? orgOf(bd, m) : repoOf(bd, m));
const secretsOf = (data: Obj[]) => Object.fromEntries(data.flatMap((x) => (s(x.name) ? [[s(x.name)!, SECRET_PLACEHOLDER]] : [])));
const variablesOf = (data: Obj[]) => Object.fromEntries(data.flatMap((x) => (s(x.name) ? [[s(x.name)!, { value: s(x.data) ?? s(x.value) ?? '', ...(s(x.description) ? { description: s(x.description) } : {}) }]] : [])));

/** The scopes first (users, organisations, repositories), then what lives in them, in the order the seed needs. */
const SCOPE_RULES: Rule[] = [
  [/^(?:admin\/users|users\/[^/]+|user)$/, (bd, _m, data) => data.forEach((u) => user(bd, u))],
  [/^(?:admin\/orgs|orgs\/[^/]+)$/, (bd, _m, data) => data.forEach((o) => org(bd, o))],
  // An organisation's repository list (a glob's expansion) is all the plan reads of that organisation: it is one.
  [/^orgs\/([^/]+)\/repos$/, (bd, m) => void (bd.users.has(m[1]!.toLowerCase()) ? undefined : org(bd, { username: m[1]! }))],
  // A repository read on its own, or listed with its owner's (a glob's expansion, a user's repositories).
  [/^(?:repos\/[^/]+\/[^/]+|(?:orgs|users)\/[^/]+\/repos|repos\/search)$/, (bd, _m, data) => data.flatMap((r) => (Array.isArray(r.data) ? r.data.filter(isObj) : [r])).forEach((r) => repo(bd, r))],
];

const OBJECT_RULES: Rule[] = [
  [/^orgs\/([^/]+)\/teams$/, (bd, m, data) => {
    for (const t of data) if (t.id !== undefined && s(t.name)) bd.teams.set(String(t.id), { org: m[1]!, name: s(t.name)! });
    const o = orgOf(bd, m);
    if (!o) return;
    o.teams = data.filter((t) => s(t.name) && s(t.name) !== 'Owners').map((t) => ({ name: s(t.name)!, ...(s(t.permission) ? { permission: s(t.permission) } : {}), ...(s(t.description) ? { description: s(t.description) } : {}), includes_all_repositories: b(t.includes_all_repositories) ?? false }));
    // A team of units (permission none) gets its units; one of a level has them from it, as the server made them.
    for (const t of data) {
      if (!s(t.name) || s(t.name) === 'Owners') continue;
      const { units, units_map, permission, ...rest } = only(EditTeamOption, t);
      bd.patches.push({ path: `teams/@${m[1]}/${s(t.name)}`, body: permission === 'none' ? { ...rest, units_map } : rest });
      void units;
    }
  }],
  [/^teams\/(\d+)\/members$/, (bd, m, data) => {
    const team = bd.teams.get(m[1]!);
    const o = team && bd.orgs.get(team.org.toLowerCase());
    if (!team || !o) return;
    data.forEach((u) => user(bd, u));
    const logins = data.flatMap((u) => (s(u.login) ? [s(u.login)!] : []));
    if (team.name === 'Owners') o.owners = logins;
    else for (const t of o.teams ?? []) if (t.name === team.name) t.members = logins;
  }],
  [/^teams\/(\d+)\/repos$/, (bd, m, data) => {
    const team = bd.teams.get(m[1]!);
    const o = team && bd.orgs.get(team.org.toLowerCase());
    for (const t of o?.teams ?? []) if (t.name === team?.name) t.repos = data.flatMap((r) => (s(r.name) && bd.repos.has(s(r.full_name)?.toLowerCase() ?? '') ? [s(r.name)!] : []));
  }],
  [/^orgs\/([^/]+)\/public_members$/, (bd, m, data) => {
    const o = orgOf(bd, m);
    data.forEach((u) => user(bd, u));
    const logins = data.flatMap((u) => (s(u.login) ? [s(u.login)!] : []));
    // Where the list answers an administrator every member, a member is public when its own GET answered 204.
    const listsAll = hasQuirk(bd.flavour, 'adminListsAllAsPublicMembers');
    const publicOnes = listsAll ? logins.filter((l) => bd.paths.has(`orgs/${m[1]}/public_members/${l}`)) : logins;
    // A public member is a member: listed as one, whether or not the plan read the teams that make them one.
    if (o) Object.assign(o, { public_members: publicOnes, members: [...new Set([...(o.members ?? []), ...logins])] });
  }],
  [/^(?:orgs\/([^/]+)|repos\/([^/]+)\/([^/]+))\/labels$/, (bd, m, data) => {
    const at = m[1] !== undefined ? orgOf(bd, m) : bd.repos.get(`${m[2]}/${m[3]}`.toLowerCase());
    if (at) at.labels = data.flatMap((l) => (s(l.name) ? [{ name: s(l.name)!, color: s(l.color) ?? 'ffffff', ...(s(l.description) ? { description: s(l.description) } : {}), exclusive: b(l.exclusive) ?? false, is_archived: b(l.is_archived) ?? false }] : []));
  }],
  [/^(?:orgs\/([^/]+)|repos\/([^/]+\/[^/]+))\/actions\/secrets$/, (bd, m, data) => {
    const at = scopeOf(bd, m[1] !== undefined ? [m[0]!, m[1]] : [m[0]!, ...m[2]!.split('/')]);
    if (at) at.secrets = secretsOf(data);
  }],
  [/^(?:orgs\/([^/]+)|repos\/([^/]+\/[^/]+))\/actions\/variables$/, (bd, m, data) => {
    const at = scopeOf(bd, m[1] !== undefined ? [m[0]!, m[1]] : [m[0]!, ...m[2]!.split('/')]);
    if (at) at.variables = variablesOf(data);
  }],
  [/^(?:orgs\/([^/]+)|repos\/([^/]+\/[^/]+))\/hooks$/, (bd, m, data) => {
    const at = scopeOf(bd, m[1] !== undefined ? [m[0]!, m[1]] : [m[0]!, ...m[2]!.split('/')]);
    if (at) at.hooks = data.map((h) => hook(h));
  }],
  // Listed by type where the release can (?type=system, ?type=default), else system hooks only (src/kinds/hook/read.ts).
  [/^admin\/hooks(?:\?type=(\w+))?$/, (bd, m, data) => {
    bd.seed.hooks.push(...data.map((h) => hook(h, m[1] !== 'default')));
  }],
  [/^repos\/([^/]+)\/([^/]+)\/collaborators$/, (bd, m, data) => {
    const r = repoOf(bd, m);
    data.forEach((u) => user(bd, u));
    if (r) r.collaborators = Object.fromEntries(data.flatMap((u) => (s(u.login) ? [[s(u.login)!, r.collaborators?.[s(u.login)!] ?? 'write']] : [])));
  }],
  [/^repos\/([^/]+)\/([^/]+)\/collaborators\/([^/]+)\/permission$/, (bd, m, data) => {
    const r = repoOf(bd, m);
    const perm = s(data[0]?.permission);
    if (isObj(data[0]?.user)) user(bd, data[0].user);
    if (!r || !perm || !['read', 'write', 'admin'].includes(perm)) return;
    if (r.collaborators?.[m[3]!] !== undefined) r.collaborators[m[3]!] = perm;
    // Where the plan read no collaborator list (an issue's assignee, checked alone), the access it read is the user's in the copy as a collaborator's.
    else if (!bd.paths.has(`repos/${m[1]}/${m[2]}/collaborators`) && bd.users.has(m[3]!.toLowerCase()) && m[1]!.toLowerCase() !== m[3]!.toLowerCase()) (r.collaborators ??= {})[m[3]!] = perm;
  }],
  [/^repos\/([^/]+)\/([^/]+)\/branch_protections$/, (bd, m, data) => {
    const r = repoOf(bd, m);
    if (r) r.branch_protections = data.map((p) => only(CreateBranchProtectionOption, { ...p, rule_name: s(p.rule_name) ?? s(p.branch_name) }));
  }],
  [/^repos\/([^/]+)\/([^/]+)\/tag_protections$/, (bd, m, data) => {
    const r = repoOf(bd, m);
    if (r) r.tag_protections = data.map((p) => only(CreateTagProtectionOption, p));
  }],
  [/^repos\/([^/]+)\/([^/]+)\/push_mirrors$/, (bd, m, data) => {
    const r = repoOf(bd, m);
    if (r) r.push_mirrors = data.flatMap((p) => (s(p.remote_address) ? [{ remote_address: s(p.remote_address)!, ...(s(p.interval) ? { interval: s(p.interval) } : {}), sync_on_commit: b(p.sync_on_commit) ?? false, ...(s(p.branch_filter) ? { branch_filter: s(p.branch_filter) } : {}) }] : []));
  }],
  [/^repos\/([^/]+)\/([^/]+)\/milestones$/, (bd, m, data) => {
    const r = repoOf(bd, m);
    if (r) r.milestones = data.flatMap((x) => (s(x.title) ? [{ title: s(x.title)!, ...(s(x.description) ? { description: s(x.description) } : {}), ...(s(x.state) ? { state: s(x.state) } : {}), ...(s(x.due_on) ? { due_on: s(x.due_on) } : {}) }] : []));
  }],
  // Last: an issue's labels and milestone are the copied ones where the plan read their lists, else added from the issue's answer.
  [/^repos\/([^/]+)\/([^/]+)\/issues(?:\/\d+)?$/, (bd, m, data) => {
    const r = repoOf(bd, m);
    if (r) r.issues = [...new Map([...(r.issues ?? []), ...data.flatMap((i) => issue(bd, r, m[1]!, i))].map((i) => [i.number, i])).values()].sort((x, y) => (x.number ?? 0) - (y.number ?? 0));
  }],
  [/^admin\/actions\/runners$/, (bd, _m, data) => {
    bd.seed.actions = { runners: data.flatMap((x) => (s(x.name) ? [{ name: s(x.name)!, ...(b(x.disabled) !== undefined ? { disabled: b(x.disabled) } : {}), ...(b(x.ephemeral) !== undefined ? { ephemeral: b(x.ephemeral) } : {}) }] : [])) };
  }],
];

/** Reads that carry no object to copy (the preflight, the lock's own look-ups, single members already in their lists). */
const NOTHING_TO_COPY = /^(?:version|settings\/api|orgs\/[^/]+\/public_members\/[^/]+|teams\/\d+\/members\/[^/]+|repos\/[^/]+\/[^/]+\/teams)$/;

/** The seed the answers make, the requests that finish it, and the paths it could not read. */
export function seedFromAnswers(answers: CopiedAnswer[], flavour: Flavour, lock: string): { seed: SeedFile; patches: { path: string; body: Obj }[]; notCopied: string[] } {
  const paths = byPath(answers, lock);
  const bd: Builder = { seed: { users: [], orgs: [], repos: [], hooks: [] }, users: new Map(), orgs: new Map(), repos: new Map(), teams: new Map(), patches: [], used: new Set(), paths, flavour, lock, approximated: [] };
  for (const rules of [SCOPE_RULES, OBJECT_RULES])
    for (const [pattern, apply] of rules)
      for (const [path, data] of paths) {
        const m = pattern.exec(path);
        if (!m) continue;
        bd.used.add(path);
        apply(bd, [...m].map((x) => (x === undefined ? x : decodeURIComponent(x))), data.filter(isObj));
      }
  // The first user with admin: true owns the copy's admin token: the server's first admin, else one the copy adds.
  if (!bd.seed.users.some((u) => u.admin)) bd.seed.users.unshift({ username: `forgeform-rehearsal-${randomBytes(3).toString('hex')}`, admin: true });
  return { seed: bd.seed, patches: bd.patches, notCopied: [...notRead(paths, bd.used), ...new Set(bd.approximated)] };
}

/**
 * The paths answered that no rule read, one line per path shape (`repos/{owner}/{repo}/keys`, with how many
 * scopes): one line per repository of a large forge would bury the rest.
 */
function notRead(paths: Map<string, unknown[]>, used: Set<string>): string[] {
  const shapes = new Map<string, Set<string>>();
  for (const p of paths.keys()) {
    if (used.has(p) || NOTHING_TO_COPY.test(p)) continue;
    const scope = /^(?:repos\/[^/]+\/[^/]+|orgs\/[^/]+|users\/[^/]+)(?=\/)/.exec(p)?.[0];
    const generic = p.replace(/^repos\/[^/]+\/[^/]+(?=\/)/, 'repos/{owner}/{repo}').replace(/^(orgs|users)\/[^/]+(?=\/)/, '$1/{name}').replace(/\/\d+(?=\/|$)/g, '/{id}');
    const shape = scope ? generic : p.replace(/\/\d+(?=\/|$)/g, '/{id}');
    shapes.set(shape, (shapes.get(shape) ?? new Set()).add(scope ?? p));
  }
  return [...shapes].map(([shape, at]) => `the answers of GET ${shape}${at.size > 1 ? ` (${at.size} of them)` : ''} (not read into the copy)`);
}

/**
 * Starts the copy on loopback (port 0): the seed loaded, then the settings sent through its API as the
 * release takes them. A setting the copy's release refuses is named in `notCopied`.
 */
export async function startCopy(answers: CopiedAnswer[], flavour: string, lock: string): Promise<ServerCopy> {
  const { seed, patches, notCopied } = seedFromAnswers(answers, parseFlavour(flavour), lock);
  const token = randomBytes(20).toString('hex');
  const sandbox = await startSandbox({ port: 0, token, seedState: buildState(seed), flavour, logRequests: false });
  const refused: string[] = [];
  for (const p of patches) {
    const path = teamPath(sandbox, p.path);
    const res = await sandbox.fetch(new Request(`${sandbox.url}/api/v1/${path}`, { method: 'PATCH', headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(p.body) }));
    if (!res.ok) refused.push(`PATCH ${p.path}: ${res.status} ${(await res.text()).trim().slice(0, 200)}`);
  }
  return { sandbox, notCopied: [...notCopied, ...refused.map((r) => `a setting the copy refused (${r})`)] };
}

/** `teams/@ORG/NAME` → `teams/ID` in the copy (its ids are its own). */
function teamPath(sandbox: Sandbox, path: string): string {
  const m = /^teams\/@([^/]+)\/(.+)$/.exec(path);
  if (!m) return path;
  const org = sandbox.state.data.orgs.find((o) => o.name.toLowerCase() === m[1]!.toLowerCase());
  const team = org && sandbox.state.data.teams.find((t) => t.orgId === org.id && t.name === m[2]);
  return team ? `teams/${team.id}` : path;
}
