/**
 * Conformance of the push mirror routes (issue 21): what each release's source does, read tag by tag
 * (Gitea v1.21.11, v1.22.6, v1.23.8, v1.24.7, v1.25.4, main 423cdd4d94 as 1.26; Forgejo v7.0.16,
 * v11.0.15, v15.0.3), each fact with its citation, against the sandbox playing each release.
 * Handler: routers/api/v1/repo/mirror.go (ListPushMirrors, AddPushMirror, CreatePushMirror,
 * DeletePushMirrorByRemoteName); answer: services/convert/mirror.go ToPushMirror; rows:
 * models/repo/pushmirror.go; settings: modules/setting/mirror.go. No release has an edit route
 * (routers/api/v1/api.go: the /push_mirrors group is Get + Post on "" and Get + Delete on "/{name}").
 */
import { expect, it } from 'vitest';
import type { Flavour } from '../../src/sandbox/flavours/flavour.js';
import { available, type Availability } from '../../src/sandbox/flavours/releases.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import { boot, type Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';
import { checkFacts } from './run-facts.js';

interface MirrorAnswer {
  remote_name: string;
  remote_address: string;
  interval: string;
  sync_on_commit: boolean;
  [key: string]: unknown;
}

const on = (f: Flavour, a: Availability): boolean => available(f, a);
/** ParseRemoteAddr refuses a URL with a user name or password (HasCredentials): Forgejo 11.0.4+ (none in v11.0.0–v11.0.3, v10.0.3) and 15. */
const REFUSES_URL_CREDENTIALS: Availability = { forgejo: { since: 11 } };
/** The /push_mirrors group has mustNotBeArchived on POST and DELETE from Gitea 1.22 and in every Forgejo read. */
const CHECKS_ARCHIVE: Availability = { gitea: { since: '1.22' }, forgejo: {} };

export const SEED: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'pm', owners: ['root'] }],
  repos: [{ name: 'pm/app' }, { name: 'pm/old', archived: true }, { name: 'pm/many' }],
};

const base = 'repos/pm/app/push_mirrors';
let seq = 0;
async function create(h: Harness, body: Record<string, unknown>, path = base): Promise<{ status: number; json: MirrorAnswer }> {
  const r = await h.call<MirrorAnswer>('POST', path, { body: { remote_address: `https://example.com/m${++seq}.git`, interval: '8h', ...body } });
  return { status: r.status, json: r.json };
}

export const FACTS: Fact[] = [
  {
    id: 'create: 200, named remote_mirror_ + 10 characters, the interval answered as Duration.String() ("8h" → "8h0m0s"), sync_on_commit as sent',
    cite: 'mirror.go CreatePushMirror: Gitea v1.21.11 l.335 (time.ParseDuration), l.365 (remote_mirror_%s of CryptoRandomString(10)), l.389 (200); v1.25.4 l.339, l.369; Forgejo v15.0.3 l.348, l.384; convert/mirror.go ToPushMirror Interval: pm.Interval.String() (v1.21.11 l.21, v1.25.4 l.23, Forgejo v15.0.3 l.23)',
    expected: () => ({ status: 200, name: true, interval: '8h0m0s', sync_on_commit: true }),
    async observe(h) {
      const r = await create(h, { sync_on_commit: true });
      return { status: r.status, name: /^remote_mirror_[A-Za-z0-9]{10}$/.test(r.json.remote_name), interval: r.json.interval, sync_on_commit: r.json.sync_on_commit };
    },
  },
  {
    id: 'interval "0" is taken (no periodic push) and answered "0s"; "1h30m" as "1h30m0s"',
    cite: 'mirror.go CreatePushMirror `interval != 0 && interval < setting.Mirror.MinInterval` (v1.21.11 l.336, v1.25.4 l.340, Forgejo v15.0.3 l.349); Go time.Duration.String',
    expected: () => ['0s', '1h30m0s'],
    async observe(h) {
      return [(await create(h, { interval: '0' })).json.interval, (await create(h, { interval: '1h30m' })).json.interval];
    },
  },
  {
    id: 'interval omitted ("") or below MIN_INTERVAL (10m by default) is 400',
    cite: 'mirror.go CreatePushMirror l.335-339 (v1.21.11; v1.25.4 l.339-343; Forgejo v15.0.3 l.348-352): ParseDuration("") fails; modules/setting/mirror.go MinInterval 10 * time.Minute (v1.21.11 l.23)',
    expected: () => [400, 400],
    async observe(h) {
      const none = await h.call('POST', base, { body: { remote_address: 'https://example.com/none.git' } });
      return [none.status, (await create(h, { interval: '5m' })).status];
    },
  },
  {
    id: 'remote_username and remote_password are never answered: the address is stored without credentials',
    cite: 'mirror.go CreatePushMirror: util.SanitizeURL (Gitea v1.21.11 l.356 of the address as sent, Forgejo v11.0.15 l.379 of the address with the credentials added); the credentials go to the git remote only (AddPushMirrorRemote); modules/structs/mirror.go PushMirror has no credential key',
    expected: () => ({ status: 200, leaks: false }),
    async observe(h) {
      const r = await create(h, { remote_address: 'https://example.com/creds.git', remote_username: 'bot', remote_password: 'pw-Xy7' });
      const list = JSON.stringify((await h.call('GET', base)).json);
      return { status: r.status, leaks: list.includes('pw-Xy7') || list.includes('bot@') || r.json.remote_address !== 'https://example.com/creds.git' };
    },
  },
  {
    id: 'credentials in remote_address: Forgejo 11.0.4+ 400 "The URL contains credentials"; elsewhere 200, stored without them',
    cite: 'Forgejo v11.0.15 services/forms/repo_form.go l.108-110 (HasCredentials), routers/api/v1/repo/mirror.go l.444-445; Gitea v1.21.11 services/forms/repo_form.go l.97-114 (no such check) and mirror.go l.356 SanitizeURL, Forgejo v7.0.16 mirror.go l.363',
    expected: (f) => (on(f, REFUSES_URL_CREDENTIALS) ? { status: 400, message: 'The URL contains credentials' } : { status: 200, address: 'https://example.com/inline.git' }),
    async observe(h) {
      const r = await h.call<MirrorAnswer & { message?: string }>('POST', base, { body: { remote_address: 'https://bot:pw@example.com/inline.git', interval: '8h' } });
      return r.status === 200 ? { status: r.status, address: r.json.remote_address } : { status: r.status, message: r.json.message };
    },
  },
  {
    id: 'a scheme other than http, https, git (or ssh) is 400 "Invalid mirror protocol"',
    cite: 'services/migrations/migrate.go IsMigrateURLAllowed (Forgejo v11.0.15 isURLAllowed l.83-85), mirror.go HandleRemoteAddressError IsProtocolInvalid (v1.21.11 l.396-397, Forgejo v11.0.15 l.438-439)',
    expected: () => ({ status: 400, message: 'Invalid mirror protocol' }),
    async observe(h) {
      const r = await h.call<{ message: string }>('POST', base, { body: { remote_address: 'ftp://example.com/x.git', interval: '8h' } });
      return { status: r.status, message: r.json.message };
    },
  },
  {
    id: 'an ssh:// address: Forgejo 9+ takes it; Gitea and Forgejo 7–8 400 "Invalid mirror protocol" (IsMigrateURLAllowed: http, https, git)',
    cite: 'services/migrations/migrate.go: Gitea v1.25.4 l.74 and Forgejo v7.0.16, v8.0.0 l.74 (http, https, git); Forgejo v9.0.0 and v10.0.0 l.74 (ssh too, 03508b33a8); v11.0.15 IsPushMirrorURLAllowed l.43-45, isURLAllowed l.83 (ssh for push mirrors)',
    expected: (f) => (f.fork === 'forgejo' && f.release >= 9 ? 200 : 400),
    async observe(h) {
      return (await h.call('POST', base, { body: { remote_address: 'ssh://git@example.com/acme/x.git', interval: '8h' } })).status;
    },
  },
  {
    id: 'DELETE of a remote name the repository does not have is 204',
    cite: 'mirror.go DeletePushMirrorByRemoteName (v1.21.11 l.322-329) → models/repo/pushmirror.go DeletePushMirrors deletes no row without error (v1.21.11 l.96-102, main l.89-95)',
    expected: () => 204,
    async observe(h) {
      return (await h.call('DELETE', `${base}/remote_mirror_nothing1`)).status;
    },
  },
  {
    id: 'the list without page holds every mirror; with page and limit it is paged; X-Total-Count is the count',
    cite: 'mirror.go ListPushMirrors (v1.21.11 l.171-187: SetTotalCountHeader(count)); models/repo/pushmirror.go GetPushMirrorsByRepoID paginates only when Page != 0 (v1.21.11 l.118, Forgejo v15.0.3 l.142)',
    expected: () => ({ all: 3, page: 2, total: '3' }),
    async observe(h) {
      for (let i = 0; i < 3; i++) await create(h, {}, 'repos/pm/many/push_mirrors');
      const all = await h.call<unknown[]>('GET', 'repos/pm/many/push_mirrors');
      const page = await h.call<unknown[]>('GET', 'repos/pm/many/push_mirrors?page=1&limit=2');
      return { all: all.json.length, page: page.json.length, total: page.headers.get('x-total-count') };
    },
  },
  {
    id: 'POST on an archived repository: 423 where the group has mustNotBeArchived (Gitea 1.22+, Forgejo), 200 on Gitea 1.21',
    cite: 'routers/api/v1/api.go: Gitea v1.21.11 l.1173-1179 (no mustNotBeArchived), v1.22.6 l.1269, v1.25.4 l.1361, Forgejo v7.0.16 l.1129, v15.0.3 l.1305',
    expected: (f) => (on(f, CHECKS_ARCHIVE) ? 423 : 200),
    async observe(h) {
      return (await create(h, {}, 'repos/pm/old/push_mirrors')).status;
    },
  },
  {
    id: 'answer keys: public_key from Forgejo 9, branch_filter from Forgejo 13',
    cite: 'modules/structs/mirror.go PushMirror (Forgejo v9.0.0 l.31 and v11.0.15: PublicKey; v13.0.0 l.34 and v15.0.3: PublicKey, BranchFilter; v8.0.0, v12.0.0 without the one; Gitea v1.25.4: neither); convert/mirror.go Forgejo v13.0.0 l.26, v15.0.3 l.25-26',
    expected: (f) => ({ public_key: f.fork === 'forgejo' && f.release >= 9, branch_filter: f.fork === 'forgejo' && f.release >= 13 }),
    async observe(h) {
      const r = await create(h, {});
      return { public_key: 'public_key' in r.json, branch_filter: 'branch_filter' in r.json };
    },
  },
];

checkFacts('%s: push mirrors conform to the source', SEED, FACTS, {
  reset: () => (seq = 0),
  more: (name) => {
    it('[mirror] ENABLED = false: every route 400 "Mirror feature is disabled"; DISABLE_NEW_PUSH alone leaves the API creating (the web UI reads it)', async () => {
      // mirror.go: `if !setting.Mirror.Enabled` in ListPushMirrors, AddPushMirror, DeletePushMirrorByRemoteName (v1.21.11 l.164, l.277, l.317;
      // v1.25.4 l.162, l.281, l.321; Forgejo v15.0.3 l.169, l.290, l.330); DisableNewPush is read by routers/web/repo/setting/setting.go only
      // (v1.21.11 l.375, main l.436, Forgejo v15.0.3 l.662).
      const off = await boot({ ...SEED, flavour: name, mirror: { enabled: false } });
      const push = await boot({ ...SEED, flavour: name, mirror: { disable_new_push: true } });
      try {
        const list = await off.call<{ message: string }>('GET', base);
        const post = await off.call<{ message: string }>('POST', base, { body: { remote_address: 'https://example.com/x.git', interval: '8h' } });
        expect([list.status, list.json.message, post.status, post.json.message]).toEqual([400, 'Mirror feature is disabled', 400, 'Mirror feature is disabled']);
        expect((await push.call('POST', base, { body: { remote_address: 'https://example.com/x.git', interval: '8h' } })).status).toBe(200);
      } finally {
        await off.sb.close();
        await push.sb.close();
      }
    });
  },
});
