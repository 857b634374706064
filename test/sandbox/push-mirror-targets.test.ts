/**
 * Push-mirror targets are judged as a migration's source is (`CreatePushMirror` → `IsMigrateURLAllowed`,
 * Gitea v1.21.11 routers/api/v1/repo/mirror.go l.341–348; services/migrations/migrate.go l.89–108 and
 * `Init` l.488–503): a host outside ALLOWED_DOMAINS, in BLOCKED_DOMAINS, or a loopback or private
 * address while ALLOW_LOCALNETWORKS is false is 401 "Permission denied" (`HandleRemoteAddressError` l.400–401).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { apiError, boot, SEED, type Harness } from './helpers.js';

let h: Harness;
afterEach(async () => h?.sb.close());

const push = (remote_address: string) => h.call('POST', 'repos/acme/widgets/push_mirrors', { body: { remote_address, interval: '8h' } });

describe('POST /repos/{owner}/{repo}/push_mirrors: the target host', () => {
  it('refuses loopback and private targets by default (401 Permission denied), as every release does', async () => {
    for (const flavour of ['gitea@1.21', 'gitea@1.25', 'forgejo@11', 'forgejo@15', 'gitea@main'] as const) {
      h = await boot({ ...SEED, flavour });
      for (const target of ['http://127.0.0.1:3000/acme/w.git', 'https://localhost/acme/w.git', 'https://10.1.2.3/acme/w.git', 'https://[::1]/w.git']) {
        const res = await push(target);
        expect(res.status, `${flavour} ${target}`).toBe(401);
        expect(res.json, `${flavour} ${target}`).toEqual(apiError(h, 'Permission denied'));
      }
      expect((await push('https://mirror.example.com/acme/w.git')).status, flavour).toBe(200);
      await h.sb.close();
    }
  });

  it('follows ALLOW_LOCALNETWORKS, ALLOWED_DOMAINS and BLOCKED_DOMAINS', async () => {
    h = await boot({ ...SEED, migrations: { allow_local_networks: true } });
    expect((await push('http://127.0.0.1:3000/acme/w.git')).status).toBe(200);
    await h.sb.close();
    h = await boot({ ...SEED, migrations: { allowed_domains: ['*.example.com'], blocked_domains: ['bad.example.com'] } });
    expect((await push('https://mirror.example.com/w.git')).status).toBe(200);
    expect((await push('https://bad.example.com/w.git')).status).toBe(401);
    expect((await push('https://github.com/acme/w.git')).status).toBe(401);
  });
});
