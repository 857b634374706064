// Push mirrors end to end: the built CLI against the sandbox, on every flavour (every release read serves the routes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import { loadSeedFile, type SeedFile } from '../../src/sandbox/index.js';
import { calls, requestsTo, writes, world, type World } from './helpers.js';

/** A password with what breaks a search-and-replace mask: quotes, a backslash, non-ASCII. */
const PASSWORD = 'mirr"or\\pässwörd-Qk73';
const env = { MIRROR_TOKEN: PASSWORD };

const seed = (extra: Partial<SeedFile> = {}): SeedFile => ({
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [
    {
      name: 'acme/widgets',
      push_mirrors: [
        { remote_address: 'https://old.example.com/acme/widgets.git', interval: '8h' },
        { remote_address: 'https://slow.example.com/acme/widgets.git', interval: '24h', sync_on_commit: false },
      ],
    },
  ],
  ...extra,
});

const CONFIG = `version: 1
policy:
  prune: [push_mirrors]
repos:
  acme/widgets:
    push_mirrors:
      - remote_address: https://github.com/acme/widgets.git
        remote_username: mirror-bot
        remote_password: \${MIRROR_TOKEN}
        interval: 1h30m
        sync_on_commit: true
      - remote_address: https://slow.example.com/acme/widgets.git
        interval: 12h
`;

interface ApiMirror {
  remote_name: string;
  remote_address: string;
  interval: string;
  sync_on_commit: boolean;
}

let w: World;
afterEach(async () => w?.sandbox.close());

async function mirrors(w: World): Promise<ApiMirror[]> {
  return (await w.api<ApiMirror[]>('GET', 'repos/acme/widgets/push_mirrors')).body;
}

function expectNoPassword(what: string, text: string): void {
  for (const form of [PASSWORD, JSON.stringify(PASSWORD).slice(1, -1), 'pässwörd']) expect(text.includes(form), `${what} holds the password`).toBe(false);
}

describe('push mirrors end to end', () => {
  for (const flavour of FLAVOURS) {
    it(`${flavour.name}: plan shows a create, a replacement and a prune; apply sends the credentials once; the next plan is empty`, async () => {
      w = await world(seed(), { flavour: flavour.name });
      const file = w.config(CONFIG);
      const planFile = join(w.dir, 'mirrors.plan');
      const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode', '--out', planFile], env);
      expect(plan.code, plan.stdout + plan.stderr).toBe(2);
      const out = plan.stdout;
      expect(out).toContain('+ push mirror "https://github.com/acme/widgets.git"');
      expect(out).toMatch(/\+ remote_password = \(sensitive, from \$\{MIRROR_TOKEN\}\)/);
      expect(out).toMatch(/\+ remote_username = "mirror-bot"/);
      expect(out).toMatch(/\+ interval\s+= "1h30m0s"/);
      // No edit route: an interval change is shown as a replacement, with why.
      expect(out).toContain('-/+ push mirror "https://slow.example.com/acme/widgets.git" (replaced: deleted and created again)');
      expect(out).toContain('~ interval: "24h0m0s" → "12h0m0s"');
      expect(out).toContain('cannot edit a push mirror');
      expect(out).toContain('- push mirror "https://old.example.com/acme/widgets.git"');
      for (const [what, text] of [['plan stdout', plan.stdout], ['plan stderr', plan.stderr], ['plan file', readFileSync(planFile, 'utf8')]] as const) expectNoPassword(what, text);
      // One list per repository.
      expect(calls(w.sandbox).filter((c) => c.startsWith('GET repos/acme/widgets/push_mirrors'))).toHaveLength(1);

      const before = await mirrors(w);
      const name = (host: string) => before.find((m) => m.remote_address.includes(host))!.remote_name;
      w.sandbox.clearRequests();
      const apply = await w.cli(['apply', '-c', file, '--yes'], env);
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      expectNoPassword('apply stdout', apply.stdout);
      expectNoPassword('apply stderr', apply.stderr);
      expect(writes(w.sandbox).sort()).toEqual(
        [
          'POST repos/acme/widgets/push_mirrors',
          'POST repos/acme/widgets/push_mirrors',
          `DELETE repos/acme/widgets/push_mirrors/${name('slow.example.com')}`,
          `DELETE repos/acme/widgets/push_mirrors/${name('old.example.com')}`,
        ].sort(),
      );
      const posts = requestsTo(w.sandbox, 'POST', 'repos/acme/widgets/push_mirrors').map((r) => r.body as Record<string, unknown>);
      const github = posts.find((b) => b.remote_address === 'https://github.com/acme/widgets.git')!;
      expect(github).toEqual({ remote_address: 'https://github.com/acme/widgets.git', interval: '1h30m0s', sync_on_commit: true, remote_username: 'mirror-bot', remote_password: PASSWORD });
      // The replacement keeps what the config does not manage (sync_on_commit) as it was; no credentials were declared.
      expect(posts.find((b) => b.remote_address === 'https://slow.example.com/acme/widgets.git')).toEqual({ remote_address: 'https://slow.example.com/acme/widgets.git', interval: '12h0m0s', sync_on_commit: false });
      for (const r of w.sandbox.requests()) expect(r.unknownFields ?? [], `${r.method} ${r.path}`).toEqual([]);

      const after = await mirrors(w);
      expect(after.map((m) => [m.remote_address, m.interval, m.sync_on_commit]).sort()).toEqual([
        ['https://github.com/acme/widgets.git', '1h30m0s', true],
        ['https://slow.example.com/acme/widgets.git', '12h0m0s', false],
      ]);
      // The server never answers the credentials.
      expectNoPassword('the list', JSON.stringify(after));
      expect(JSON.stringify(after)).not.toContain('mirror-bot');

      const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('No changes');
    });
  }

  it('a changed password cannot be seen: it is sent again only with --rotate-secrets, which replaces the mirror', async () => {
    w = await world(seed());
    const file = w.config(CONFIG);
    expect((await w.cli(['apply', '-c', file, '--yes'], env)).code).toBe(0);
    const quiet = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(quiet.code, quiet.stdout).toBe(0);
    const old = (await mirrors(w)).find((m) => m.remote_address.includes('github.com'))!.remote_name;
    w.sandbox.clearRequests();
    const rotate = await w.cli(['apply', '-c', file, '--yes', '--rotate-secrets'], env);
    expect(rotate.code, rotate.stdout + rotate.stderr).toBe(0);
    expectNoPassword('rotate stdout', rotate.stdout);
    expect(writes(w.sandbox)).toEqual([`DELETE repos/acme/widgets/push_mirrors/${old}`, 'POST repos/acme/widgets/push_mirrors']);
    expect(requestsTo(w.sandbox, 'POST', 'repos/acme/widgets/push_mirrors')[0]!.body).toMatchObject({ remote_username: 'mirror-bot', remote_password: PASSWORD, interval: '1h30m0s', sync_on_commit: true });
  });

  it('keeps undeclared push mirrors without push_mirrors in policy.prune', async () => {
    w = await world(seed());
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    push_mirrors:\n      - remote_address: https://slow.example.com/acme/widgets.git\n        interval: 24h\n');
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // Not deleted; said to be kept (issue 27 item 4), by its address.
    expect(plan.stdout).not.toMatch(/- push mirror "https:\/\/old/);
    expect(plan.stdout).toMatch(/Kept: .*push mirror.* in acme\/widgets is not declared: kept; add push_mirrors to policy\.prune .*"https:\/\/old\.example\.com\/acme\/widgets\.git"/);
  });

  it('refuses a password written in the config, credentials in the address, and an interval no server takes, naming the place', async () => {
    w = await world(seed());
    const file = w.config(`version: 1
repos:
  acme/widgets:
    push_mirrors:
      - remote_address: https://github.com/acme/widgets.git
        remote_password: literal-Pw-9d
      - remote_address: https://bot:tok-Zx81@github.com/acme/other.git
      - remote_address: https://gitlab.com/acme/widgets.git
        interval: 30s
`);
    w.sandbox.clearRequests();
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:6:9: remote_password is a secret and must come from an environment variable/s);
    expect(plan.stderr).toMatch(/forgeform\.yaml:7:9: remote_address holds credentials/);
    expect(plan.stderr).toMatch(/forgeform\.yaml:9:9: interval 30s is below the minimum mirror interval 10m/);
    for (const leak of ['literal-Pw-9d', 'tok-Zx81']) expect(plan.stdout + plan.stderr).not.toContain(leak);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('refuses an interval under the server\'s MIN_INTERVAL (10m by default) at plan time; policy.mirror_min_interval lowers it for a server set so', async () => {
    w = await world(seed({ mirror: { min_interval: '2m' } }));
    const text = (policy: string) => `version: 1
repos:
  acme/widgets:
    push_mirrors:
      - remote_address: https://gitlab.com/acme/widgets.git
        interval: 5m
${policy}`;
    const refused = await w.cli(['plan', '-c', w.config(text(''), 'default.yaml')]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/default\.yaml:6:9: interval 5m is below the minimum mirror interval 10m \(policy\.mirror_min_interval/);
    expect(writes(w.sandbox)).toEqual([]);
    const file = w.config(text('policy:\n  mirror_min_interval: 2m\n'), 'lowered.yaml');
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });

  it('a server with [mirror] ENABLED = false: the read fails with the server\'s message, nothing is written', async () => {
    w = await world(seed({ mirror: { enabled: false } }));
    const file = w.config(CONFIG);
    const plan = await w.cli(['plan', '-c', file], env);
    expect(plan.code).not.toBe(0);
    expect(plan.stderr).toContain('Mirror feature is disabled');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('export writes them, and planning the export against the same server shows no changes', async () => {
    w = await world(seed());
    const out = join(w.dir, 'exported.yaml');
    const exp = await w.cli(['export', '--include', 'acme/widgets', '--include', 'push_mirrors', '-o', out]);
    expect(exp.code, exp.stdout + exp.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('remote_address: https://old.example.com/acme/widgets.git');
    expect(text).toContain('interval: 8h0m0s');
    const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});

describe('branch_filter (Forgejo 15 only)', () => {
  const config = 'version: 1\nrepos:\n  acme/widgets:\n    push_mirrors:\n      - remote_address: https://github.com/acme/widgets.git\n        interval: 8h\n        branch_filter: "release/*"\n';

  it('forgejo@15: sent on create, read back, and the next plan is empty', async () => {
    w = await world(seed(), { flavour: 'forgejo@15' });
    const file = w.config(config);
    expect((await w.cli(['apply', '-c', file, '--yes'])).code).toBe(0);
    expect(requestsTo(w.sandbox, 'POST', 'repos/acme/widgets/push_mirrors')[0]!.body).toEqual({ remote_address: 'https://github.com/acme/widgets.git', interval: '8h0m0s', branch_filter: 'release/*' });
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('gitea@1.26: refused at its place before anything is written (the server would ignore it)', async () => {
    w = await world(seed(), { flavour: 'gitea@1.26' });
    const file = w.config(config);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:7:\d+: .*branch_filter/);
    expect(writes(w.sandbox)).toEqual([]);
  });
});

describe('ssh:// remote addresses (Forgejo 9 and newer)', () => {
  const config = 'version: 1\nrepos:\n  acme/widgets:\n    push_mirrors:\n      - remote_address: ssh://github.com/acme/widgets.git\n        interval: 8h\n';
  it('gitea@1.25 and forgejo@7: refused at its place before anything is written; forgejo@11: created', async () => {
    for (const [flavour, code] of [['gitea@1.25', 1], ['forgejo@7', 1], ['forgejo@11', 0]] as const) {
      w = await world(seed(), { flavour });
      const file = w.config(config);
      const apply = await w.cli(['apply', '-c', file, '--yes']);
      expect(apply.code, `${flavour}: ${apply.stdout}${apply.stderr}`).toBe(code);
      if (code) {
        expect(apply.stderr).toMatch(/forgeform\.yaml:5:\d+: .*ssh:\/\/ remote_address/);
        expect(writes(w.sandbox)).toEqual([]);
      } else expect(writes(w.sandbox)).toContain('POST repos/acme/widgets/push_mirrors');
      await w.sandbox.close();
    }
  });
});

describe('a hostile remote address on the server', () => {
  it('is printed inert in the plan of its deletion: one line, no raw control character, and never with credentials', async () => {
    const hostile = 'https://evil.example.com/x\n  + push mirror "forged"\u001b[2K\u202e';
    w = await world(seed({ repos: [{ name: 'acme/widgets', push_mirrors: [{ remote_address: hostile }] }] }));
    const file = w.config('version: 1\npolicy: { prune: [push_mirrors], max_delete_fraction: 1 }\nrepos:\n  acme/widgets:\n    push_mirrors: []\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stderr).toBe(0);
    // eslint-disable-next-line no-control-regex -- finding these characters is the point
    for (const l of plan.stdout.split('\n')) expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/.test(l), JSON.stringify(l)).toBe(false);
    const changes = plan.stdout.split('\n').filter((l) => /^\s+[-+~]/.test(l));
    expect(changes).toHaveLength(1);
    // The address as URLs are parsed (WHATWG drops a tab or line break inside a URL), within its quotes.
    expect(changes[0]).toMatch(/^ {2}- push mirror "https:\/\/evil\.example\.com\/x {2}\+ push mirror \\"forged\\"\\u001b\[2K\\u202e"$/);
  });
});

describe('the mirrors example', () => {
  it('plans, applies, and then plans no changes (examples/mirrors)', async () => {
    const dir = fileURLToPath(new URL('../../examples/mirrors/', import.meta.url));
    w = await world(loadSeedFile(`${dir}seed.yaml`));
    const file = `${dir}forgeform.yaml`;
    const token = { MIRROR_BOT_TOKEN: 'example-token-Rb52' };
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], token);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain('Plan: 2 to create, 1 to update, 1 to delete, 0 to rename, 1 to replace.');
    const apply = await w.cli(['apply', '-c', file, '--yes'], token);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], token);
    expect(again.code, again.stdout).toBe(0);
    expect(plan.stdout + plan.stderr + apply.stdout + apply.stderr).not.toContain('example-token-Rb52');
  });
});
