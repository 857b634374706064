import { kinds } from '../../src/kinds/index.js';
import type { SeedFile } from '../../src/sandbox/index.js';

type SeedOrg = NonNullable<SeedFile['orgs']>[number];
type SeedRepo = NonNullable<SeedFile['repos']>[number];
const acme = (entry: Omit<SeedOrg, 'name'>): SeedFile => ({ orgs: [{ name: 'acme', ...entry }] });
const widgets = (entry: Omit<SeedRepo, 'name'>): SeedFile => ({ repos: [{ name: 'acme/widgets', ...entry }] });

/**
 * The objects of each kind of the registry, by kind name (what the sandbox seeds them from): users,
 * an organisation with a label, a team with a member and a repository, a public member, a repository
 * with a label, a collaborator, a branch protection, a tag protection, a milestone, an issue, a push
 * mirror, a webhook and a deploy key, a pull mirror, Actions secrets and variables of both, an organisation webhook,
 * an admin webhook and an Actions runner.
 */
const OBJECTS_OF: Readonly<Record<string, SeedFile>> = {
  user: {
    users: [
      { username: 'root', admin: true, email: 'root@example.com' },
      { username: 'alice', email: 'alice@example.com' },
    ],
  },
  org: acme({ owners: ['root'] }),
  // A pull mirror (the repository kind): export writes its source and interval.
  repo: { repos: [{ name: 'acme/widgets' }, { name: 'acme/upstream', mirror: { from: 'https://code.example.com/upstream/tools.git', interval: '12h' } }] },
  // The repository's settings (repo_settings) are the repository itself; its topics are one of them.
  repo_settings: widgets({ topics: ['widgets'] }),
  hook: { hooks: [{ type: 'gitea', config: { url: 'https://ci.example.com/hook', content_type: 'json', is_system_webhook: true }, events: ['push'], active: true }] },
  runner: { actions: { runners: [{ name: 'runner-1' }] } },
  org_label: acme({ labels: [{ name: 'org-bug', color: 'ee0701' }] }),
  repo_label: widgets({ labels: [{ name: 'bug', color: 'ee0701' }] }),
  team: acme({ teams: [{ name: 'devs', permission: 'write', members: ['alice'], repos: ['widgets'] }] }),
  public_membership: acme({ public_members: ['alice'] }),
  collaborator: widgets({ collaborators: { alice: 'read' } }),
  org_actions_secret: acme({ secrets: { ORG_TOKEN: 'org-secret-value' } }),
  org_actions_variable: acme({ variables: { REGISTRY: 'registry.example.com' } }),
  repo_actions_secret: widgets({ secrets: { DEPLOY_KEY: 'repo-secret-value' } }),
  repo_actions_variable: widgets({ variables: { DEPLOY_ENV: { value: 'production', description: 'where main goes' } } }),
  branch_protection: widgets({ branch_protections: [{ rule_name: 'main' }] }),
  tag_protection: widgets({ tag_protections: [{ name_pattern: 'v*', whitelist_teams: ['devs'] }] }),
  issue: widgets({ milestones: [{ title: 'v1' }], issues: [{ title: 'First', body: 'one', labels: ['bug'], milestone: 'v1' }] }),
  push_mirror: widgets({ push_mirrors: [{ remote_address: 'https://mirror.example.com/acme/widgets.git', interval: '8h', sync_on_commit: true }] }),
  org_webhook: acme({ hooks: [{ type: 'slack', config: { url: 'https://hooks.slack.example.com/acme', content_type: 'json', channel: '#acme' }, events: ['issues_only', 'release'], active: true }] }),
  repo_webhook: widgets({ hooks: [{ type: 'gitea', config: { url: 'https://ci.example.com/widgets', content_type: 'form' }, events: ['push', 'pull_request'], branch_filter: 'main', active: true }] }),
  deploy_key: widgets({ deploy_keys: [{ title: 'ci', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFzTs3vPbQh5AxsIh24/MMxLjEmesV5G2HJ1NiSK/SkA ci@example.com', read_only: true }] }),
  // npm run new-kind: a new kind's objects go here (its sandbox domain seeds them).
};

/** Entries of several seeds joined by name: one entry's keys merged, in the place of its first appearance. */
function byName<T extends { name: string }>(lists: (T[] | undefined)[]): T[] | undefined {
  const out = new Map<string, T>();
  for (const e of lists.flatMap((l) => l ?? [])) out.set(e.name, { ...out.get(e.name), ...e });
  return out.size ? [...out.values()] : undefined;
}

/** One seed of several: users and admin webhooks one after the other, organisations and repositories joined by name, Actions merged. */
function joinSeeds(parts: SeedFile[]): SeedFile {
  const concat = <T>(lists: (T[] | undefined)[]) => lists.flatMap((l) => l ?? []);
  return {
    users: concat(parts.map((p) => p.users)),
    orgs: byName(parts.map((p) => p.orgs)),
    repos: byName(parts.map((p) => p.repos)),
    hooks: concat(parts.map((p) => p.hooks)),
    actions: Object.assign({}, ...parts.map((p) => p.actions)),
  };
}

/**
 * A sandbox seed with objects of every kind forgeform manages: those of OBJECTS_OF for each kind of
 * the registry, in its order (a kind without an entry there fails here, at load). The registry
 * contract test and the export round trip use it.
 */
export const EVERY_KIND: SeedFile = joinSeeds(
  kinds.map((k) => {
    const objects = OBJECTS_OF[k.name];
    if (!objects) throw new Error(`test/support/seeds.ts: OBJECTS_OF has no objects of the kind ${k.name}: add them`);
    return objects;
  }),
);

/**
 * The kinds that read only the objects a config names (one GET each), by kind name: the names of
 * their objects in EVERY_KIND, which the registry contract test reads them by.
 */
export const EVERY_KIND_NAMED: Record<string, string[]> = { repo: ['acme/widgets', 'acme/upstream'], issue: ['#1'] };

/** Seed users: root, the site administrator, then each one named, with an e-mail address of their name at example.com. */
export function rootAnd(...names: string[]): NonNullable<SeedFile['users']> {
  return [{ username: 'root', admin: true, email: 'root@example.com' }, ...names.map((username) => ({ username, email: `${username}@example.com` }))];
}

/** The seed of many end-to-end tests: root, the site administrator, owner of the organisation acme; `extra` adds to it (or replaces a key). */
export function rootAndAcme(extra: Partial<SeedFile> = {}): SeedFile {
  return { users: rootAnd(), orgs: [{ name: 'acme', owners: ['root'] }], ...extra };
}

/** The issue tests' people: root, alice and bob, and acme with its team devs (alice, bob) and two exclusive organisation labels; `repos` are acme's repositories. */
export function acmeIssuePeople(repos: NonNullable<SeedFile['repos']>): SeedFile & Required<Pick<SeedFile, 'users' | 'orgs' | 'repos'>> {
  return {
    users: rootAnd('alice', 'bob'),
    orgs: [
      {
        name: 'acme',
        owners: ['root'],
        teams: [{ name: 'devs', permission: 'write', members: ['alice', 'bob'] }],
        labels: [{ name: 'kind/bug', color: 'ee0701', exclusive: true }, { name: 'kind/feature', color: '0288d1', exclusive: true }],
      },
    ],
    repos,
  };
}

/** acme/widgets with `count` labels (l00, l01 …), and a config that declares each as it is: the honest plan is empty. */
export function widgetsWithLabels(count: number): { labels: { name: string; color: string }[]; seed: SeedFile; config: string } {
  const labels = Array.from({ length: count }, (_, i) => ({ name: `l${String(i).padStart(2, '0')}`, color: '00aa00' }));
  return {
    labels,
    seed: rootAndAcme({ repos: [{ name: 'acme/widgets', labels }] }),
    config: widgetsLabelsConfig(labels),
  };
}

/** A config that declares these labels of acme/widgets, each with its colour. */
export function widgetsLabelsConfig(labels: { name: string; color: string }[]): string {
  return `version: 1\nrepos:\n  acme/widgets:\n    labels:\n${labels.map((l) => `      ${l.name}: { color: "${l.color}" }`).join('\n')}\n`;
}
