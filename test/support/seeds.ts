import type { SeedFile } from '../../src/sandbox/index.js';

/**
 * A sandbox seed with objects of every kind forgeform manages: users, an organisation with a label,
 * a team with a member and a repository, a public member, a repository with a label, a collaborator, a branch protection, a tag protection, a milestone, an issue, a push mirror, a webhook and a deploy key, a pull mirror,
 * Actions secrets and variables of both, an organisation webhook, an admin webhook and an
 * Actions runner. The registry contract test and the export round trip use it; a new kind adds its
 * objects here.
 */
export const EVERY_KIND: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
  ],
  orgs: [
    {
      name: 'acme',
      owners: ['root'],
      labels: [{ name: 'org-bug', color: 'ee0701' }],
      teams: [{ name: 'devs', permission: 'write', members: ['alice'], repos: ['widgets'] }],
      secrets: { ORG_TOKEN: 'org-secret-value' },
      variables: { REGISTRY: 'registry.example.com' },
      public_members: ['alice'],
      hooks: [{ type: 'slack', config: { url: 'https://hooks.slack.example.com/acme', content_type: 'json', channel: '#acme' }, events: ['issues_only', 'release'], active: true }],
    },
  ],
  repos: [
    {
      name: 'acme/widgets',
      labels: [{ name: 'bug', color: 'ee0701' }],
      branch_protections: [{ rule_name: 'main' }],
      tag_protections: [{ name_pattern: 'v*', whitelist_teams: ['devs'] }],
      milestones: [{ title: 'v1' }],
      issues: [{ title: 'First', body: 'one', labels: ['bug'], milestone: 'v1' }],
      // The repository's settings (repo_settings) are the repository itself; its topics are one of them.
      topics: ['widgets'],
      secrets: { DEPLOY_KEY: 'repo-secret-value' },
      variables: { DEPLOY_ENV: { value: 'production', description: 'where main goes' } },
      collaborators: { alice: 'read' },
      push_mirrors: [{ remote_address: 'https://mirror.example.com/acme/widgets.git', interval: '8h', sync_on_commit: true }],
      hooks: [{ type: 'gitea', config: { url: 'https://ci.example.com/widgets', content_type: 'form' }, events: ['push', 'pull_request'], branch_filter: 'main', active: true }],
      deploy_keys: [{ title: 'ci', key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFzTs3vPbQh5AxsIh24/MMxLjEmesV5G2HJ1NiSK/SkA ci@example.com', read_only: true }],
    },
    // A pull mirror (the repository kind): export writes its source and interval.
    { name: 'acme/upstream', mirror: { from: 'https://code.example.com/upstream/tools.git', interval: '12h' } },
  ],
  hooks: [{ type: 'gitea', config: { url: 'https://ci.example.com/hook', content_type: 'json', is_system_webhook: true }, events: ['push'], active: true }],
  actions: { runners: [{ name: 'runner-1' }] },
  // npm run new-kind: a new kind's objects go here (its sandbox domain seeds them).
};

/**
 * The kinds that read only the objects a config names (one GET each), by kind name: the names of
 * their objects in EVERY_KIND, which the registry contract test reads them by.
 */
export const EVERY_KIND_NAMED: Record<string, string[]> = { repo: ['acme/widgets', 'acme/upstream'], issue: ['#1'] };

/** Seed users: root, the site administrator, then each one named, with an e-mail address of their name at example.com. */
export function rootAnd(...names: string[]): NonNullable<SeedFile['users']> {
  return [{ username: 'root', admin: true, email: 'root@example.com' }, ...names.map((username) => ({ username, email: `${username}@example.com` }))];
}
