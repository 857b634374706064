/**
 * The seed file (YAML): the users, organisations and repositories the sandbox starts with. Every
 * object goes through the same create functions as the API, so a seeded label, branch protection
 * or issue is stored exactly as the server would store it after a create. The format is documented
 * in README.md; unknown keys are errors (with the path of the key), like the config schema.
 */
import { bool, list, obj, oneOf, requireUser, SeedError, str, strings, type Obj } from './core/seed-shape.js';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { CreateBranchProtectionOption } from './domains/branch-protections/options.js';
import { bindBody } from './http/binding.js';
import { createOrg, createUser } from './domains/users/routes.js';
import { createProtection } from './domains/branch-protections/routes.js';
import { createIssue, createProject } from './domains/issues/routes.js';
import { createLabel } from './domains/labels/routes.js';
import { createMilestone } from './domains/milestones/routes.js';
import { createRepo } from './domains/repos/routes.js';
import { isFailure } from './core/failure.js';
import { SEED_ADMIN_KEYS, seedAdminKeys, type SeedAdminKeys } from './domains/admin-misc/seed.js';
import { seedAuthSources, seedBadges, seedHooks, seedUserAccount, TOP_ACCOUNT_KEYS, USER_ACCOUNT_KEYS, type SeedAccountFile, type SeedUserAccount } from './domains/users/seed.js';
import { nowIso, SandboxState, type OrgRecord, type RepoRecord, type UserRecord } from './core/state.js';

export interface SeedToken {
  token: string;
  /** Gitea token scopes; default `[all]`. */
  scopes?: string[];
  name?: string;
}

/** `source_id`, `emails`, `keys`, `badges` and the never-returned flags: see seed-accounts.ts. */
export interface SeedUser extends SeedUserAccount {
  username: string;
  /** Default `<username>@example.com`. */
  email?: string;
  password?: string;
  /** A personal access token with all scopes. */
  token?: string;
  tokens?: (string | SeedToken)[];
  admin?: boolean;
  full_name?: string;
  /** Default false (the API's default is true: such a user could not call the API). */
  must_change_password?: boolean;
  active?: boolean;
  prohibit_login?: boolean;
  restricted?: boolean;
  /** `public` | `limited` | `private`. */
  visibility?: string;
  login_name?: string;
  website?: string;
  location?: string;
  description?: string;
}

export interface SeedLabel {
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
  is_archived?: boolean;
}

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
  labels?: SeedLabel[];
}

export interface SeedMilestone {
  title: string;
  description?: string;
  /** `open` (default) | `closed`. */
  state?: string;
  due_on?: string;
}

export interface SeedIssue {
  title: string;
  body?: string;
  /** Label names (the repository's first, then its organisation's) or ids. */
  labels?: (string | number)[];
  /** `open` (default) | `closed`. */
  state?: string;
  /** Default: the repository owner when a user, else the first site admin. */
  author?: string;
  assignees?: string[];
  /** Milestone title. */
  milestone?: string;
  due_date?: string;
  ref?: string;
  /** Project titles (of this repository). */
  projects?: string[];
}

export interface SeedProject {
  title: string;
  description?: string;
  /** `open` (default) | `closed`. */
  state?: string;
}

export interface SeedRepo {
  /** `owner/name`; the owner must be a seeded user or organisation. */
  name: string;
  description?: string;
  website?: string;
  private?: boolean;
  archived?: boolean;
  template?: boolean;
  /** Default `main`. */
  default_branch?: string;
  /** Branch names besides the default branch. */
  branches?: string[];
  /** Default false: the repository has its default branch. true = a freshly created empty repository. */
  empty?: boolean;
  has_issues?: boolean;
  has_pull_requests?: boolean;
  has_wiki?: boolean;
  /** `read` | `write` | `admin` per user name. */
  collaborators?: Record<string, string>;
  /** A label template (`Default`, `Advanced`) created first, as `issue_labels` on create does. */
  label_template?: string;
  labels?: SeedLabel[];
  /** Bodies of `POST …/branch_protections`, stored as the server would after that create. */
  branch_protections?: Record<string, unknown>[];
  milestones?: SeedMilestone[];
  /** Repository projects (boards); issues refer to them by title. */
  projects?: SeedProject[];
  /** Numbered 1, 2, 3 … in this order. */
  issues?: SeedIssue[];
}

/** `actions`, `cron`, `packages`, `unadopted`, `notifications`: see seed-admin.ts. */
export interface SeedFile extends SeedAdminKeys, SeedAccountFile {
  users?: SeedUser[];
  orgs?: SeedOrg[];
  repos?: SeedRepo[];
}

const VISIBILITIES = ['public', 'limited', 'private'] as const;

// ---- building -----------------------------------------------------------------------------------

function seedLabels(state: SandboxState, owner: { repoId: number } | { orgId: number }, raw: unknown, path: string): void {
  list(raw, path).forEach((l, i) => {
    const p = `${path}[${i}]`;
    const o = obj(l, p, ['name', 'color', 'description', 'exclusive', 'is_archived']);
    const res = createLabel(state, owner, {
      name: str(o.name, `${p}.name`, true)!,
      color: str(o.color, `${p}.color`, true)!,
      description: str(o.description, `${p}.description`),
      exclusive: bool(o.exclusive, `${p}.exclusive`),
      isArchived: bool(o.is_archived, `${p}.is_archived`),
    });
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
  });
}

function seedUsers(state: SandboxState, raw: unknown): void {
  list(raw, 'users').forEach((u, i) => {
    const p = `users[${i}]`;
    const o = obj(u, p, [
      'username', 'email', 'password', 'token', 'tokens', 'admin', 'full_name', 'must_change_password', 'active', 'prohibit_login', 'restricted',
      'visibility', 'login_name', 'website', 'location', 'description', ...USER_ACCOUNT_KEYS,
    ]);
    const username = str(o.username, `${p}.username`, true)!;
    const res = createUser(state, {
      username,
      email: str(o.email, `${p}.email`) ?? `${username.toLowerCase()}@example.com`,
      password: str(o.password, `${p}.password`),
      skipPasswordPolicy: true,
      admin: bool(o.admin, `${p}.admin`),
      fullName: str(o.full_name, `${p}.full_name`),
      mustChangePassword: bool(o.must_change_password, `${p}.must_change_password`) ?? false,
      active: bool(o.active, `${p}.active`),
      prohibitLogin: bool(o.prohibit_login, `${p}.prohibit_login`),
      restricted: bool(o.restricted, `${p}.restricted`),
      visibility: oneOf(o.visibility, `${p}.visibility`, VISIBILITIES),
      loginName: str(o.login_name, `${p}.login_name`),
      website: str(o.website, `${p}.website`),
      location: str(o.location, `${p}.location`),
      description: str(o.description, `${p}.description`),
    });
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
    const token = str(o.token, `${p}.token`);
    if (token) state.addToken(res.id, token, ['all']);
    list(o.tokens, `${p}.tokens`).forEach((t, j) => {
      const tp = `${p}.tokens[${j}]`;
      if (typeof t === 'string') return void state.addToken(res.id, t, ['all']);
      const to = obj(t, tp, ['token', 'scopes', 'name']);
      const scopes = to.scopes === undefined ? ['all'] : strings(to.scopes, `${tp}.scopes`);
      state.addToken(res.id, str(to.token, `${tp}.token`, true)!, scopes, str(to.name, `${tp}.name`) ?? 'sandbox');
    });
    seedUserAccount(state, res, o, p);
  });
}

/** Teams' repository names, resolved once the repositories exist. */
interface PendingTeamRepos {
  teamId: number;
  org: OrgRecord;
  repos: string[];
  path: string;
}

function seedOrgs(state: SandboxState, raw: unknown, admin: UserRecord): PendingTeamRepos[] {
  const pending: PendingTeamRepos[] = [];
  list(raw, 'orgs').forEach((og, i) => {
    const p = `orgs[${i}]`;
    const o = obj(og, p, ['name', 'full_name', 'email', 'description', 'website', 'location', 'visibility', 'owners', 'members', 'teams', 'labels']);
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
      if (repos) pending.push({ teamId: team.id, org, repos, path: `${tp}.repos` });
    });
    seedLabels(state, { orgId: org.id }, o.labels, `${p}.labels`);
  });
  return pending;
}

function seedRepos(state: SandboxState, raw: unknown, admin: UserRecord, pendingTeams: PendingTeamRepos[]): void {
  const REPO_KEYS = [
    'name', 'description', 'website', 'private', 'archived', 'template', 'default_branch', 'branches', 'empty', 'has_issues', 'has_pull_requests',
    'has_wiki', 'collaborators', 'label_template', 'labels', 'branch_protections', 'milestones', 'projects', 'issues',
  ];
  const later: { repo: RepoRecord; o: Obj; p: string }[] = [];
  list(raw, 'repos').forEach((r, i) => {
    const p = `repos[${i}]`;
    const o = obj(r, p, REPO_KEYS);
    const full = str(o.name, `${p}.name`, true)!;
    const m = /^([^/]+)\/([^/]+)$/.exec(full);
    if (!m) throw new SeedError(`${p}.name: expected owner/name, got ${JSON.stringify(full)}`);
    const owner = state.ownerByName(m[1]!);
    if (!owner) throw new SeedError(`${p}.name: no user or organisation ${JSON.stringify(m[1])} in the seed`);
    const empty = bool(o.empty, `${p}.empty`) ?? false;
    const res = createRepo(state, owner.id, {
      name: m[2]!,
      description: str(o.description, `${p}.description`),
      private: bool(o.private, `${p}.private`),
      template: bool(o.template, `${p}.template`),
      default_branch: str(o.default_branch, `${p}.default_branch`),
      issue_labels: str(o.label_template, `${p}.label_template`),
      auto_init: !empty,
    });
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
    const repo = res;
    repo.website = str(o.website, `${p}.website`) ?? '';
    for (const b of strings(o.branches, `${p}.branches`)) if (!repo.branches.includes(b)) repo.branches.push(b);
    if (repo.branches.length > 0) repo.empty = false;
    repo.units.hasIssues = bool(o.has_issues, `${p}.has_issues`) ?? true;
    repo.units.hasPullRequests = bool(o.has_pull_requests, `${p}.has_pull_requests`) ?? true;
    repo.units.hasWiki = bool(o.has_wiki, `${p}.has_wiki`) ?? true;
    if (o.collaborators !== undefined && o.collaborators !== null) {
      const collabs = obj(o.collaborators, `${p}.collaborators`, Object.keys(o.collaborators));
      for (const [name, perm] of Object.entries(collabs)) {
        const u = requireUser(state, name, `${p}.collaborators.${name}`);
        const permission = oneOf(perm, `${p}.collaborators.${name}`, ['read', 'write', 'admin'] as const)!;
        repo.collaborators.push({ userId: u.id, permission });
      }
    }
    seedLabels(state, { repoId: repo.id }, o.labels, `${p}.labels`);
    list(o.milestones, `${p}.milestones`).forEach((ms, j) => {
      const mp = `${p}.milestones[${j}]`;
      const mo = obj(ms, mp, ['title', 'description', 'state', 'due_on']);
      const dueOn = str(mo.due_on, `${mp}.due_on`);
      if (dueOn !== undefined && Number.isNaN(Date.parse(dueOn))) throw new SeedError(`${mp}.due_on: not a date: ${JSON.stringify(dueOn)}`);
      createMilestone(state, repo, {
        title: str(mo.title, `${mp}.title`, true)!,
        description: str(mo.description, `${mp}.description`),
        state: oneOf(mo.state, `${mp}.state`, ['open', 'closed'] as const),
        dueOn,
      });
    });
    list(o.projects, `${p}.projects`).forEach((pj, j) => {
      const pp = `${p}.projects[${j}]`;
      const po = obj(pj, pp, ['title', 'description', 'state']);
      createProject(state, repo, {
        title: str(po.title, `${pp}.title`, true)!,
        description: str(po.description, `${pp}.description`),
        state: oneOf(po.state, `${pp}.state`, ['open', 'closed'] as const),
        creatorId: owner.kind === 'user' ? owner.id : admin.id,
      });
    });
    later.push({ repo, o, p });
  });

  // Team repositories, now that every repository exists.
  for (const t of pendingTeams) {
    const team = state.teamById(t.teamId)!;
    t.repos.forEach((name, k) => {
      const repo = state.repoByName(t.org.id, name);
      if (!repo) throw new SeedError(`${t.path}[${k}]: no repository ${t.org.name}/${name} in the seed`);
      team.repoIds.push(repo.id);
    });
  }

  // Branch protections and issues depend on the final permissions.
  for (const { repo, o, p } of later) {
    list(o.branch_protections, `${p}.branch_protections`).forEach((bp, j) => {
      const bpPath = `${p}.branch_protections[${j}]`;
      const bound = bindBody(CreateBranchProtectionOption, { method: 'POST', contentType: 'application/json', rawBody: JSON.stringify(bp ?? {}), query: new URLSearchParams() });
      if (bound.unknownFields.length) throw new SeedError(`${bpPath}.${bound.unknownFields[0]}: unknown branch protection field`);
      if (bound.error) throw new SeedError(`${bpPath}: ${bound.error}`);
      const res = createProtection(state, repo, bound.form);
      if (isFailure(res)) throw new SeedError(`${bpPath}: ${res.message}`);
    });
    list(o.issues, `${p}.issues`).forEach((is, j) => seedIssue(state, repo, is, `${p}.issues[${j}]`, admin));
    repo.archived = bool(o.archived, `${p}.archived`) ?? false;
    if (repo.archived) repo.archivedAt = nowIso();
  }
}

function seedIssue(state: SandboxState, repo: RepoRecord, raw: unknown, p: string, admin: UserRecord): void {
  const o = obj(raw, p, ['title', 'body', 'labels', 'state', 'author', 'assignees', 'milestone', 'due_date', 'ref', 'projects']);
  const owner = state.repoOwner(repo);
  const authorName = str(o.author, `${p}.author`);
  const author = authorName ? requireUser(state, authorName, `${p}.author`) : owner.kind === 'user' ? owner.user : admin;
  const labelIds = list(o.labels, `${p}.labels`).map((l, k) => {
    if (typeof l === 'number') return l;
    const name = str(l, `${p}.labels[${k}]`, true)!;
    const found = state.labelsOfRepo(repo.id).find((x) => x.name === name) ?? (owner.kind === 'org' ? state.labelsOfOrg(owner.id).find((x) => x.name === name) : undefined);
    if (!found) throw new SeedError(`${p}.labels[${k}]: no label ${JSON.stringify(name)} in ${state.repoFullName(repo)} or its organisation`);
    return found.id;
  });
  const msTitle = str(o.milestone, `${p}.milestone`);
  const milestone = msTitle ? state.milestonesOfRepo(repo.id).find((m) => m.title === msTitle) : undefined;
  if (msTitle && !milestone) throw new SeedError(`${p}.milestone: no milestone ${JSON.stringify(msTitle)} in ${state.repoFullName(repo)}`);
  const due = str(o.due_date, `${p}.due_date`);
  if (due !== undefined && Number.isNaN(Date.parse(due))) throw new SeedError(`${p}.due_date: not a date: ${JSON.stringify(due)}`);
  const projectIds = strings(o.projects, `${p}.projects`).map((title, k) => {
    const project = state.data.projects.find((x) => x.repoId === repo.id && x.title === title);
    if (!project) throw new SeedError(`${p}.projects[${k}]: no project ${JSON.stringify(title)} in ${state.repoFullName(repo)}`);
    return project.id;
  });
  createIssue(state, repo, {
    title: str(o.title, `${p}.title`, true)!,
    body: str(o.body, `${p}.body`),
    ref: str(o.ref, `${p}.ref`),
    authorId: author.id,
    labelIds,
    milestoneId: milestone?.id,
    assigneeIds: strings(o.assignees, `${p}.assignees`).map((n, k) => requireUser(state, n, `${p}.assignees[${k}]`).id),
    dueDate: due ?? null,
    projectIds,
    closed: (oneOf(o.state, `${p}.state`, ['open', 'closed'] as const) ?? 'open') === 'closed',
  });
}

/**
 * Builds a state from a seed. Without users (or without a site admin), a site admin `root` is
 * added: the admin token always belongs to the first site admin.
 */
export { SeedError };

export function buildState(seed: SeedFile = {}): SandboxState {
  const state = new SandboxState();
  const top = obj(seed, 'seed', ['users', 'orgs', 'repos', ...SEED_ADMIN_KEYS, ...TOP_ACCOUNT_KEYS]);
  seedAuthSources(state, top.auth_sources);
  seedBadges(state, top.badges);
  seedUsers(state, top.users);
  let admin = state.data.users.find((u) => u.isAdmin);
  if (!admin) {
    const name = state.isNameTaken('root') ? 'sandbox-admin' : 'root';
    const res = createUser(state, { username: name, email: `${name}@example.com`, admin: true, mustChangePassword: false, skipPasswordPolicy: true });
    if (isFailure(res)) throw new SeedError(`cannot add the site admin: ${res.message}`);
    admin = res;
  }
  const pendingTeams = seedOrgs(state, top.orgs, admin);
  seedRepos(state, top.repos, admin, pendingTeams);
  seedAdminKeys(state, top, admin);
  seedHooks(state, top.hooks);
  return state;
}

/** The first site admin: the owner of the admin token. */
export function adminUser(state: SandboxState): UserRecord {
  const admin = state.data.users.find((u) => u.isAdmin && u.isActive);
  if (!admin) throw new SeedError('the sandbox state has no active site admin');
  return admin;
}

/** Reads and checks a seed file (YAML). Errors name the file and the key. */
export function loadSeedFile(path: string): SeedFile {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new SeedError(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const seed = (parsed ?? {}) as SeedFile;
  try {
    buildState(seed);
  } catch (err) {
    if (err instanceof SeedError) throw new SeedError(`${path}: ${err.message}`);
    throw err;
  }
  return seed;
}
