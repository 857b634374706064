import { startSandbox, type Sandbox, type SandboxOptions, type SeedFile } from '../../src/sandbox/index.js';
import { apiCall, type ApiResult, type CallOptions } from '../support/api.js';

export type { ApiResult, CallOptions };

export const ADMIN_TOKEN = 'admin-token';

/**
 * The seed most tests share:
 * - root: site admin (password rootpass1); olga: second owner of acme;
 * - acme/widgets: devs (write: bob) and readers (read: rita) have access; mia is an acme member in no team;
 * - alice/personal: alice's own repository, bob collaborates with write, rita with read;
 * - acme/attic is archived; acme/secret is private; carol has no rights anywhere.
 */
export const SEED: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com', password: 'rootpass1' },
    { username: 'alice', email: 'alice@example.com', password: 'alicepass1', token: 'alice-token' },
    { username: 'bob', token: 'bob-token' },
    { username: 'carol', token: 'carol-token' },
    { username: 'olga', token: 'olga-token' },
    { username: 'rita', token: 'rita-token' },
    { username: 'mia', token: 'mia-token', tokens: [{ token: 'mia-read-token', scopes: ['read:repository', 'read:organization'] }] },
  ],
  orgs: [
    {
      name: 'acme',
      owners: ['root', 'olga'],
      members: ['mia'],
      teams: [
        { name: 'devs', permission: 'write', members: ['bob'] },
        { name: 'readers', permission: 'read', members: ['rita'], repos: ['widgets'] },
        { name: 'nobody', permission: 'write', members: [], repos: ['gadgets'] },
      ],
      labels: [{ name: 'org-bug', color: 'ee0701', description: 'org wide' }],
    },
  ],
  repos: [
    {
      name: 'acme/widgets',
      labels: [
        { name: 'bug', color: 'ee0701', description: 'Something is not working' },
        { name: 'feature', color: '#00AAbb' },
      ],
      milestones: [{ title: 'v1' }],
      issues: [
        { title: 'First', body: 'one', labels: ['bug'], author: 'bob' },
        { title: 'Second', labels: ['bug', 'org-bug'], state: 'closed', milestone: 'v1', assignees: ['bob'] },
      ],
    },
    { name: 'acme/gadgets' },
    { name: 'acme/attic', archived: true, branch_protections: [{ rule_name: 'main' }], labels: [{ name: 'old', color: '123456' }] },
    { name: 'acme/secret', private: true },
    { name: 'alice/personal', collaborators: { bob: 'write', rita: 'read' } },
  ],
};

export interface Harness {
  sb: Sandbox;
  url: string;
  /** An API call, as the admin unless opts.token says otherwise (null: anonymous). */
  call<T = unknown>(method: string, path: string, opts?: CallOptions): Promise<ApiResult<T>>;
}

/**
 * A sandbox for the tests of one domain. They describe Gitea's newest behaviour (`gitea@main`, with
 * the fields no release has yet); what each release does differently is tested in flavours*.test.ts.
 */
export async function boot(seed: SeedFile | undefined = SEED, extra: Partial<SandboxOptions> = {}): Promise<Harness> {
  const sb = await startSandbox({ port: 0, token: ADMIN_TOKEN, seed, ...(seed?.flavour ? {} : { flavour: 'gitea@main' }), ...extra });
  return {
    sb,
    url: sb.url,
    call<T>(method: string, path: string, opts: CallOptions = {}): Promise<ApiResult<T>> {
      return apiCall<T>(sb.url, method, path, { ...opts, token: opts.token === undefined ? ADMIN_TOKEN : opts.token });
    },
  };
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** The `{message,url}` error body of this sandbox. */
export function apiError(h: Harness, message: string): { message: string; url: string } {
  return { message, url: `${h.url}/api/swagger` };
}

/** `APIErrorNotFound(...)`: `{message, url, errors}` — `errors` null (a nil slice) on Gitea; "not found" from Gitea 1.25. */
export function notFoundError(h: Harness, message = 'not found'): { message: string; url: string; errors: null } {
  return { ...apiError(h, message), errors: null };
}
