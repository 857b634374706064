/**
 * Conformance of pull mirrors (issue 21): `POST /repos/migrate` with `mirror: true`
 * (routers/api/v1/repo/migrate.go; the interval in modules/repository/repo.go MigrateRepositoryGitData up
 * to Gitea 1.21, services/repository/migrate.go later and in Forgejo), the repository answer's `mirror`,
 * `mirror_interval`, `original_url` (services/convert/repository.go ToRepo), and `mirror_interval` of
 * `PATCH /repos/{o}/{r}` (routers/api/v1/repo/repo.go updateMirror), read tag by tag (Gitea v1.21.11,
 * v1.22.6, v1.23.8, v1.24.7, v1.25.4, main 423cdd4d94 as 1.26; Forgejo v7.0.16, v11.0.15, v15.0.3),
 * against the sandbox playing each release. The sandbox clones nothing: a migrated repository is empty.
 */
import { expect, it } from 'vitest';
import type { Flavour } from '../../src/sandbox/flavours/flavour.js';
import { available, type Availability } from '../../src/sandbox/flavours/releases.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import { boot, type Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';
import { checkFacts } from './run-facts.js';

interface RepoAnswer {
  mirror: boolean;
  mirror_interval: string;
  original_url: string;
  message?: string;
}

const on = (f: Flavour, a: Availability): boolean => available(f, a);
/** ParseRemoteAddr refuses a URL with credentials (HasCredentials): Forgejo 11.0.4+ (none in v11.0.0–v11.0.3, v10.0.3) and 15. */
const REFUSES_URL_CREDENTIALS: Availability = { forgejo: { since: 11 } };
/** updateMirror on a repository that is no mirror: 422 in Gitea 1.21, skipped later and in Forgejo. */
const EDIT_OF_NON_MIRROR_422: Availability = { gitea: { until: '1.21' } };

export const SEED: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'pm', owners: ['root'] }],
  repos: [{ name: 'pm/plain' }, { name: 'pm/taken' }, { name: 'pm/copy', mirror: { from: 'https://example.com/copy.git', interval: '8h' } }],
};

let seq = 0;
async function migrate(h: Harness, body: Record<string, unknown>): Promise<{ status: number; json: RepoAnswer }> {
  const r = await h.call<RepoAnswer>('POST', 'repos/migrate', { body: { clone_addr: `https://example.com/src${++seq}.git`, repo_owner: 'pm', repo_name: `m${seq}`, mirror: true, ...body } });
  return { status: r.status, json: r.json };
}

export const FACTS: Fact[] = [
  {
    id: 'migrate with mirror: true: 201 within the request (no task), the repository a mirror, its interval as Duration.String(), original_url the source',
    cite: 'migrate.go Migrate: MigrateRepository in the handler, then 201 ToRepo (v1.21.11 l.209-215, main l.215-221 doLongTimeMigrate, Forgejo v15.0.3 l.214-231); convert/repository.go ToRepo mirrorInterval = pullMirror.Interval.String() (v1.21.11 l.138-143, main l.153-158), OriginalURL: SanitizedOriginalURL (v1.21.11 l.187, main l.207)',
    expected: () => ({ status: 201, mirror: true, interval: '2h0m0s', original: 'https://example.com/fixed.git' }),
    async observe(h) {
      const r = await migrate(h, { clone_addr: 'https://example.com/fixed.git', mirror_interval: '2h' });
      return { status: r.status, mirror: r.json.mirror, interval: r.json.mirror_interval, original: r.json.original_url };
    },
  },
  {
    id: 'no mirror_interval: the default 8h; "0": no periodic sync, answered "0s"',
    cite: 'modules/repository/repo.go v1.21.11 l.187-207 (Interval: setting.Mirror.DefaultInterval; parsedInterval == 0); services/repository/migrate.go v1.25.4 l.185-203, Forgejo v15.0.3 l.187-204; setting/mirror.go DefaultInterval 8h (v1.21.11 l.24)',
    expected: () => ['8h0m0s', '0s'],
    async observe(h) {
      return [(await migrate(h, {})).json.mirror_interval, (await migrate(h, { mirror_interval: '0' })).json.mirror_interval];
    },
  },
  {
    id: 'an interval below MIN_INTERVAL fails the migration: 500, and the repository is removed again',
    cite: 'modules/repository/repo.go v1.21.11 l.207-211 ("interval %s is set below Minimum Interval of %s"), services/repository/migrate.go v1.25.4 l.204-206; migrate.go handleMigrateError default 500 (v1.21.11 l.248-249) and the deferred DeleteRepositoryDirectly (l.202-206)',
    expected: () => ({ status: 500, left: 404 }),
    async observe(h) {
      const r = await migrate(h, { mirror_interval: '1m' });
      return { status: r.status, left: (await h.call('GET', `repos/pm/m${seq}`)).status };
    },
  },
  {
    id: 'a name the owner already has: 409 "The repository with the same name already exists."',
    cite: 'migrate.go handleMigrateError IsErrRepoAlreadyExist (v1.21.11 l.220-221)',
    expected: () => ({ status: 409, message: 'The repository with the same name already exists.' }),
    async observe(h) {
      const r = await migrate(h, { repo_name: 'taken' });
      return { status: r.status, message: r.json.message };
    },
  },
  {
    id: 'credentials in clone_addr: Forgejo 11.0.4+ 422 "The URL contains credentials."; elsewhere taken, original_url answered without them',
    cite: 'Forgejo v11.0.15 services/forms/repo_form.go l.108-110, routers/api/v1/repo/migrate.go l.286-287; Gitea v1.21.11 models/repo/repo.go SanitizedOriginalURL l.198-204',
    expected: (f) => (on(f, REFUSES_URL_CREDENTIALS) ? { status: 422, message: 'The URL contains credentials.' } : { status: 201, original: 'https://example.com/inline.git' }),
    async observe(h) {
      const r = await migrate(h, { clone_addr: 'https://bot:pw-Lm3@example.com/inline.git' });
      return r.status === 201 ? { status: r.status, original: r.json.original_url } : { status: r.status, message: r.json.message };
    },
  },
  {
    id: 'original_url is the address as sent with only its user info dropped (Go url.Parse, User = nil, String): the host keeps its case and port',
    cite: 'migrate.go OriginalURL: form.CloneAddr (Gitea v1.21.11 l.176, v1.25.4 l.179; Forgejo v7.0.16 l.176); convert/repository.go OriginalURL: repo.SanitizedOriginalURL() (v1.21.11 l.187, v1.25.4 l.199, main l.207); models/repo/repo.go SanitizedOriginalURL (v1.25.4 l.255-261); modules/util/url.go SanitizeURL (v1.21.11 l.43-50)',
    expected: (f) => (on(f, REFUSES_URL_CREDENTIALS) ? 422 : 'https://Example.COM:8443/team/Inline.git'),
    async observe(h) {
      const r = await migrate(h, { clone_addr: 'https://bot:pw-Lm3@Example.COM:8443/team/Inline.git' });
      return r.status === 201 ? r.json.original_url : r.status;
    },
  },
  {
    id: 'an ssh source is refused for a migration (only push mirrors take ssh): 422',
    cite: 'services/migrations/migrate.go IsMigrateURLAllowed (Forgejo v11.0.15 l.83-85: `!isPushMirror && u.Scheme == "ssh"`; Gitea v1.21.11 services/migrations/migrate.go: http, https, git only; Forgejo v9.0.0 and v10.0.0 l.74 take ssh for migrations too, not played); migrate.go handleRemoteAddrError IsURLError (v1.21.11 l.258-259)',
    expected: () => 422,
    async observe(h) {
      return (await migrate(h, { clone_addr: 'ssh://git@example.com/x.git' })).status;
    },
  },
  {
    id: 'a loopback source is refused (ALLOW_LOCALNETWORKS false): 422 "You can not import from disallowed hosts."',
    cite: 'migrate.go handleRemoteAddrError IsPermissionDenied (v1.21.11 l.260-265); services/migrations/migrate.go IsMigrateURLAllowed (setting.Migrations.AllowLocalNetworks)',
    expected: () => ({ status: 422, message: 'You can not import from disallowed hosts.' }),
    async observe(h) {
      const r = await migrate(h, { clone_addr: 'http://127.0.0.1:3000/x.git' });
      return { status: r.status, message: r.json.message };
    },
  },
  {
    id: 'PATCH mirror_interval of a mirror: stored and answered as Duration.String(); below MIN_INTERVAL 422',
    cite: 'repo.go updateMirror: time.ParseDuration, `interval != 0 && interval < MinInterval` 422 (v1.21.11 l.1053-1064, v1.25.4 l.1086-1097, Forgejo v15.0.3 l.1174-1186)',
    expected: () => ({ interval: '1h30m0s', short: 422 }),
    async observe(h) {
      const ok = await h.call<RepoAnswer>('PATCH', 'repos/pm/copy', { body: { mirror_interval: '90m' } });
      const short = await h.call('PATCH', 'repos/pm/copy', { body: { mirror_interval: '5m' } });
      return { interval: ok.json.mirror_interval, short: short.status };
    },
  },
  {
    id: 'PATCH mirror_interval of a repository that is no mirror: 422 in Gitea 1.21; later releases and Forgejo skip it (200, still no mirror)',
    cite: 'repo.go updateMirror: v1.21.11 l.1034-1039 ("repo is not a mirror, can not change mirror interval"); v1.22.6 l.1070, v1.25.4 l.1069, Forgejo v7.0.16 l.1057, v15.0.3 l.1157 ("Skip this update if the repo is not a mirror")',
    expected: (f) => (on(f, EDIT_OF_NON_MIRROR_422) ? { status: 422 } : { status: 200, mirror: false, interval: '' }),
    async observe(h) {
      const r = await h.call<RepoAnswer>('PATCH', 'repos/pm/plain', { body: { mirror_interval: '8h' } });
      return r.status === 200 ? { status: r.status, mirror: r.json.mirror, interval: r.json.mirror_interval } : { status: r.status };
    },
  },
];

checkFacts('%s: pull mirrors conform to the source', SEED, FACTS, {
  reset: () => (seq = 0),
  more: (name) => {
    it('DISABLE_NEW_PULL (or ENABLED = false): 403 for mirror: true; DISABLE_MIGRATIONS: 403 for every migration', async () => {
      // migrate.go: `form.Mirror && setting.Mirror.DisableNewPull` 403, then `setting.Repository.DisableMigrations` 403
      // (v1.21.11 l.118-126, main l.117-125, Forgejo v15.0.3 l.124-132); setting/mirror.go: ENABLED = false sets DisableNewPull (v1.21.11 l.41-44).
      const noPull = await boot({ ...SEED, flavour: name, mirror: { enabled: false } });
      const noMigrations = await boot({ ...SEED, flavour: name, migrations: { disabled: true } });
      try {
        const a = await noPull.call<{ message: string }>('POST', 'repos/migrate', { body: { clone_addr: 'https://example.com/a.git', repo_owner: 'pm', repo_name: 'a', mirror: true } });
        const b = await noMigrations.call<{ message: string }>('POST', 'repos/migrate', { body: { clone_addr: 'https://example.com/b.git', repo_owner: 'pm', repo_name: 'b', mirror: true } });
        expect([a.status, a.json.message, b.status, b.json.message]).toEqual([403, 'the site administrator has disabled the creation of new pull mirrors', 403, 'the site administrator has disabled migrations']);
      } finally {
        await noPull.sb.close();
        await noMigrations.sb.close();
      }
    });
  },
});
