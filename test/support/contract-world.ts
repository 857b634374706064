/**
 * The world a generated config lives in (test/support/contract.ts): what the seeded sandbox holds
 * (read from CONTRACT_SEED, not listed twice) and what the config being generated declares or
 * creates, recorded as the walk draws it. The generator draws its references from it: team members
 * who exist or are created, whitelist users who will have write access after the plan (collaborators,
 * team grants, owners), teams of the repository's organisation, labels, milestones and branches of
 * the repository, repositories of the team's organisation.
 */
import type { SeedFile } from '../../src/sandbox/index.js';

export interface OrgFacts {
  teams: Set<string>;
  /** Users in a team of the organisation (owners included): the ones that can be public members. */
  members: Set<string>;
  labels: Set<string>;
  owners: Set<string>;
  created: boolean;
}

export interface RepoFacts {
  owner: string;
  name: string;
  labels: Set<string>;
  milestones: Set<string>;
  branches: Set<string>;
  issues: Set<string>;
  tagProtections: Set<string>;
  /** Teams that have the repository after the plan (the organisation's Owners team has every one). */
  teams: Set<string>;
  /** Users with read access after the plan (writers included). */
  readers: Set<string>;
  /** Users with write access after the plan. */
  writers: Set<string>;
  created: boolean;
}

export interface World {
  users: Set<string>;
  /** Users the config creates. */
  newUsers: Set<string>;
  orgs: Map<string, OrgFacts>;
  repos: Map<string, RepoFacts>;
  /** Makes URLs unique: a hook's identity is its URL, a push mirror's its address. */
  serial: number;
  /** SSH keys given already: a key belongs to one user. */
  keys: Set<string>;
}

const grant = (facts: RepoFacts, user: string, permission: string | undefined) => {
  facts.readers.add(user);
  if (permission === 'write' || permission === 'admin' || permission === 'owner') facts.writers.add(user);
};

export function newOrg(world: World, name: string, owners: string[], created: boolean): OrgFacts {
  const facts: OrgFacts = { teams: new Set(['Owners']), members: new Set(owners), labels: new Set(), owners: new Set(owners), created };
  world.orgs.set(name, facts);
  return facts;
}

export function newRepo(world: World, key: string, created: boolean, branches: string[] = []): RepoFacts {
  const [owner = '', name = ''] = key.split('/');
  const org = world.orgs.get(owner);
  const facts: RepoFacts = { owner, name, labels: new Set(), milestones: new Set(), branches: new Set(branches), issues: new Set(), tagProtections: new Set(), teams: new Set(org ? ['Owners'] : []), readers: new Set(), writers: new Set(), created };
  for (const u of org?.owners ?? [owner]) grant(facts, u, 'owner');
  world.repos.set(key, facts);
  return facts;
}

/** The team's grant, once its fields are drawn: its members get its permission on its repositories. */
export function grantTeam(world: World, org: string, name: string, team: Record<string, unknown>): void {
  const facts = world.orgs.get(org);
  const members = Array.isArray(team.members) ? team.members.map(String) : [];
  for (const m of members) facts?.members.add(m);
  const names = Array.isArray(team.repositories) ? team.repositories.map(String) : [];
  for (const repo of world.repos.values()) {
    if (repo.owner !== org || !(team.includes_all_repositories === true || names.includes(repo.name))) continue;
    repo.teams.add(name);
    for (const m of members) grant(repo, m, typeof team.permission === 'string' ? team.permission : 'read');
  }
}

export function grantCollaborator(repo: RepoFacts | undefined, user: string, permission: unknown): void {
  if (repo && typeof permission === 'string') grant(repo, user, permission);
}

/** The world as the seed makes it. */
export function worldOf(seed: SeedFile): World {
  const world: World = { users: new Set(), newUsers: new Set(), orgs: new Map(), repos: new Map(), serial: 0, keys: new Set() };
  for (const u of seed.users ?? []) world.users.add(u.username);
  const admin = seed.users?.find((u) => u.admin)?.username ?? 'root';
  for (const o of seed.orgs ?? []) {
    const facts = newOrg(world, o.name, o.owners ?? [admin], false);
    for (const l of o.labels ?? []) facts.labels.add(l.name);
  }
  for (const r of seed.repos ?? []) {
    const facts = newRepo(world, r.name, false, r.empty ? [] : [r.default_branch ?? 'main', ...(r.branches ?? [])]);
    for (const l of r.labels ?? []) facts.labels.add(l.name);
    for (const m of r.milestones ?? []) facts.milestones.add(m.title);
    for (const t of r.tag_protections ?? []) facts.tagProtections.add(String(t.name_pattern));
    (r.issues ?? []).forEach((_, i) => facts.issues.add(String(i + 1)));
    for (const [u, p] of Object.entries(r.collaborators ?? {})) grant(facts, u, p);
  }
  for (const o of seed.orgs ?? []) {
    for (const t of o.teams ?? []) {
      world.orgs.get(o.name)?.teams.add(t.name);
      grantTeam(world, o.name, t.name, { members: t.members, repositories: t.repos, permission: t.permission, includes_all_repositories: t.includes_all_repositories ?? t.repos === undefined });
    }
  }
  return world;
}
