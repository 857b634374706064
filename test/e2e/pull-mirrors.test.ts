// Pull mirrors end to end: repositories created as mirrors (POST /repos/migrate), their interval changed in
// place (PATCH mirror_interval); the built CLI against the sandbox, on every flavour (every release serves both).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { ProxiedRequest } from '../support/misbehaving-proxy.js';
import { rootAndAcme } from '../support/seeds.js';
import { bodyOf, calls, requestsTo, writes, world, type World } from './helpers.js';
import { proxiedWorlds } from './proxied-world.js';

const PASSWORD = 'pull"mirr\\ör-Tk29';
const env = { UPSTREAM_TOKEN: PASSWORD };

const seed = (extra: Partial<SeedFile> = {}): SeedFile =>
  rootAndAcme({ repos: [{ name: 'acme/plain' }, { name: 'acme/upstream-copy', mirror: { from: 'https://code.example.com/upstream/copy.git', interval: '24h' } }], ...extra });

const CONFIG = `version: 1
repos:
  acme/tools:
    mirror:
      from: https://github.com/example/tools.git
      username: mirror-bot
      password: \${UPSTREAM_TOKEN}
      interval: 2h
      private: true
      description: Tools, mirrored
    labels:
      upstream: { color: "0e8a16" }        # made once the mirror exists
  acme/upstream-copy:
    mirror:
      from: https://code.example.com/upstream/copy.git
      interval: 12h
`;

interface ApiRepo {
  mirror: boolean;
  mirror_interval: string;
  original_url: string;
  private: boolean;
  description: string;
}

let w: World;
afterEach(async () => {
  await w?.sandbox.close();
});
/** A world behind a proxy that rewrites answers (closed after each test on its own). */
const behind = proxiedWorlds();

function expectNoPassword(what: string, text: string): void {
  for (const form of [PASSWORD, JSON.stringify(PASSWORD).slice(1, -1), 'mirr\\ör', 'mirr\\\\ör']) expect(text.includes(form), `${what} holds the password`).toBe(false);
}

describe('pull mirrors end to end', () => {
  for (const flavour of FLAVOURS) {
    it(`${flavour.name}: creates a mirror by migration, changes an interval in place; the next plan is empty`, async () => {
      w = await world(seed(), { flavour: flavour.name });
      const file = w.config(CONFIG);
      const planFile = join(w.dir, 'pull.plan');
      const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode', '--out', planFile], env);
      expect(plan.code, plan.stdout + plan.stderr).toBe(2);
      expect(plan.stdout).toContain('+ repository "acme/tools"');
      expect(plan.stdout).toMatch(/\+ password\s+= \(sensitive, from \$\{UPSTREAM_TOKEN\}\)/);
      expect(plan.stdout).toContain('~ repository "acme/upstream-copy"');
      expect(plan.stdout).toContain('~ interval: "24h0m0s" → "12h0m0s"');
      for (const [what, text] of [['plan stdout', plan.stdout], ['plan stderr', plan.stderr], ['plan file', readFileSync(planFile, 'utf8')]] as const) expectNoPassword(what, text);

      w.sandbox.clearRequests();
      const apply = await w.cli(['apply', '-c', file, '--yes'], env);
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      expectNoPassword('apply output', apply.stdout + apply.stderr);
      const made = writes(w.sandbox);
      expect([...made].sort()).toEqual(['PATCH repos/acme/upstream-copy', 'POST repos/acme/tools/labels', 'POST repos/migrate']);
      // The label waits for the repository it lives in.
      expect(made.indexOf('POST repos/acme/tools/labels')).toBeGreaterThan(made.indexOf('POST repos/migrate'));
      expect(bodyOf(w.sandbox, 'POST', 'repos/migrate')).toEqual({
        clone_addr: 'https://github.com/example/tools.git',
        repo_owner: 'acme',
        repo_name: 'tools',
        mirror: true,
        service: 'git',
        mirror_interval: '2h0m0s',
        auth_username: 'mirror-bot',
        auth_password: PASSWORD,
        private: true,
        description: 'Tools, mirrored',
      });
      expect(bodyOf(w.sandbox, 'PATCH', 'repos/acme/upstream-copy')).toEqual({ mirror_interval: '12h0m0s' });
      for (const r of w.sandbox.requests()) expect(r.unknownFields ?? [], `${r.method} ${r.path}`).toEqual([]);

      const tools = (await w.api<ApiRepo>('GET', 'repos/acme/tools')).body;
      expect([tools.mirror, tools.mirror_interval, tools.original_url, tools.private]).toEqual([true, '2h0m0s', 'https://github.com/example/tools.git', true]);
      expect((await w.api<ApiRepo>('GET', 'repos/acme/upstream-copy')).body.mirror_interval).toBe('12h0m0s');

      const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('No changes');
    });
  }

  it('refuses to make an existing repository that is not a mirror into one, at its place, and writes nothing', async () => {
    w = await world(seed());
    const file = w.config('version: 1\nrepos:\n  acme/plain:\n    mirror:\n      from: https://github.com/example/plain.git\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:4:\d+: .*acme\/plain exists and is not a mirror: the API cannot turn a repository into a pull mirror/);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('warns when an existing mirror fetches from another source (the API cannot change it), and changes nothing for it', async () => {
    w = await world(seed());
    const file = w.config('version: 1\nrepos:\n  acme/upstream-copy:\n    mirror:\n      from: https://code.example.com/upstream/moved.git\n      interval: 24h\n');
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout + plan.stderr).toContain('acme/upstream-copy mirrors "https://code.example.com/upstream/copy.git", not "https://code.example.com/upstream/moved.git"');
  });

  it('refuses create: with mirror:, a password written in the config and credentials in from, naming the place', async () => {
    w = await world(seed());
    const file = w.config(`version: 1
repos:
  acme/a:
    create: {}
    mirror: { from: "https://github.com/example/a.git" }
  acme/b:
    mirror:
      from: https://github.com/example/b.git
      password: literal-pw-Jq55
  acme/c:
    mirror: { from: "https://bot:tok-Vn31@github.com/example/c.git" }
`);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:5:\d+: a repository is created either empty \(create:\) or as a mirror \(mirror:\), not both/);
    expect(plan.stderr).toMatch(/forgeform\.yaml:9:\d+: password is a secret and must come from an environment variable/);
    expect(plan.stderr).toMatch(/forgeform\.yaml:11:\d+: from holds credentials/);
    for (const leak of ['literal-pw-Jq55', 'tok-Vn31']) expect(plan.stdout + plan.stderr).not.toContain(leak);
  });

  it('a server that refuses new pull mirrors: apply reports the 403 and its message, the repository is not created', async () => {
    w = await world(seed({ mirror: { disable_new_pull: true } }));
    const file = w.config(CONFIG);
    const apply = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(apply.code).not.toBe(0);
    expect(apply.stdout + apply.stderr).toContain('the site administrator has disabled the creation of new pull mirrors');
    expectNoPassword('apply output', apply.stdout + apply.stderr);
    expect((await w.api('GET', 'repos/acme/tools')).status).toBe(404);
    expect(requestsTo(w.sandbox, 'POST', 'repos/acme/tools/labels')).toEqual([]);
  });
});

/** A mirror made with its credentials in the address (Gitea takes them; Forgejo 11+ refuses them over the API, not in a seed). */
const SECRET = 's3cret-Pq71';
const withCredentials = seed({ repos: [{ name: 'acme/plain' }, { name: 'acme/upstream-copy', mirror: { from: `https://mirror-bot:${SECRET}@code.example.com/upstream/copy.git`, interval: '24h' } }] });
const EXPORTED_MIRROR = '  acme/upstream-copy:\n    mirror:\n      from: https://code.example.com/upstream/copy.git\n      interval: 24h0m0s\n';

describe('export of pull mirrors', () => {
  for (const flavour of FLAVOURS) {
    it(`${flavour.name}: writes each mirror's source (without credentials) and interval, selected or not; planning the file changes nothing`, async () => {
      w = await world(withCredentials, { flavour: flavour.name });
      for (const [i, selection] of [[], ['--include', 'acme/upstream-copy'], ['--include', 'acme/*']].entries()) {
        const out = join(w.dir, `exported-${i}.yaml`);
        const exported = await w.cli(['export', '-o', out, ...selection]);
        expect(exported.code, exported.stderr).toBe(0);
        const text = readFileSync(out, 'utf8');
        expect(text, selection.join(' ')).toContain(EXPORTED_MIRROR);
        // Only the mirror has a mirror: entry; the write-only user name and password are never written.
        expect(text.match(/^ {4}mirror:/gm)).toHaveLength(1);
        expect(text).not.toMatch(/username|password|mirror-bot/);
        for (const t of [text, exported.stdout, exported.stderr]) expect(t).not.toContain(SECRET);

        w.sandbox.clearRequests();
        const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode']);
        expect(plan.stdout + plan.stderr, selection.join(' ')).toContain('No changes');
        expect(plan.stderr).not.toMatch(/warning|error/i);
        expect(plan.code).toBe(0);
        expect(writes(w.sandbox)).toEqual([]);
      }
    });
  }

  it('--include repos writes only the mirrors of the repositories selected, from the GET of each (no list of every repository)', async () => {
    w = await world(withCredentials);
    const exported = await w.cli(['export', '--include', 'repos', '--include', 'acme/upstream-copy']);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain(`version: 1\nrepos:\n${EXPORTED_MIRROR}`);
    expect(exported.stdout).not.toContain('acme/plain');
    expect(calls(w.sandbox).filter((c) => c.startsWith('GET repos/acme/upstream-copy'))).toEqual(['GET repos/acme/upstream-copy']);
    expect(calls(w.sandbox).filter((c) => /repos\/search|orgs\/acme\/repos|admin\/users\/.*\/repos/.test(c))).toEqual([]);
  });
});

describe('an exported pull mirror applied where the repository is missing', () => {
  it('is made again as a mirror of its source, with its interval (not as an empty repository); then the plan is empty', async () => {
    w = await world(withCredentials);
    const out = join(w.dir, 'backup.yaml');
    const exported = await w.cli(['export', '-o', out, '--include', 'acme/upstream-copy']);
    expect(exported.code, exported.stderr).toBe(0);
    const lost = await world(seed({ repos: [{ name: 'acme/plain' }] }));
    try {
      const env = { FORGEFORM_URL: lost.sandbox.url };
      const apply = await w.cli(['apply', '-c', out, '--yes'], env);
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      expect(bodyOf(lost.sandbox, 'POST', 'repos/migrate')).toEqual({ clone_addr: 'https://code.example.com/upstream/copy.git', repo_owner: 'acme', repo_name: 'upstream-copy', mirror: true, service: 'git', mirror_interval: '24h0m0s' });
      const made = (await lost.api<ApiRepo>('GET', 'repos/acme/upstream-copy')).body;
      expect([made.mirror, made.mirror_interval, made.original_url]).toEqual([true, '24h0m0s', 'https://code.example.com/upstream/copy.git']);
      const again = await w.cli(['plan', '-c', out, '--detailed-exitcode'], env);
      expect(again.code, again.stdout + again.stderr).toBe(0);
    } finally {
      await lost.sandbox.close();
    }
  });
});

describe('a pull mirror whose source the server answers empty', () => {
  it('(a stored address Go cannot parse: SanitizedOriginalURL answers "") is exported without mirror:, and the file plans no change', async () => {
    w = await world(seed({ repos: [{ name: 'acme/upstream-copy', mirror: { from: 'https://code.example.com/up\u0001stream.git', interval: '24h' } }] }));
    expect((await w.api<ApiRepo>('GET', 'repos/acme/upstream-copy')).body.original_url).toBe('');
    const out = join(w.dir, 'empty-source.yaml');
    const exported = await w.cli(['export', '-o', out, '--include', 'acme/upstream-copy']);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('  acme/upstream-copy:\n');
    expect(text).not.toContain('mirror:');
    const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});

/** The answers of a repository (single or in a list) with `patch` over them: a hostile or broken server. */
function answering(name: string, patch: Record<string, unknown>) {
  const edit = (b: unknown): unknown =>
    Array.isArray(b) ? b.map(edit) : b && typeof b === 'object' && (b as { full_name?: unknown }).full_name === name ? { ...b, ...patch } : b;
  return (r: ProxiedRequest) => (r.method === 'GET' && (r.path === `repos/${name}` || r.path.endsWith('/repos')) ? { type: 'rewrite' as const, edit } : undefined);
}

describe('export of a pull mirror from a hostile server', () => {
  it('strips credentials the server answers in original_url: the secret is in no file, output or error, and the file plans no change', async () => {
    const hostile = await behind(seed(), answering('acme/upstream-copy', { original_url: `https://user:${SECRET}@host.example.com/x.git` }));
    const env = { FORGEFORM_URL: hostile.proxy.url };
    for (const selection of [[], ['--include', 'acme/upstream-copy']]) {
      const out = join(hostile.dir, `hostile-${selection.length}.yaml`);
      const toFile = await hostile.cli(['export', '-o', out, ...selection], env);
      const toStdout = await hostile.cli(['export', ...selection], env);
      expect([toFile.code, toStdout.code], toFile.stderr + toStdout.stderr).toEqual([0, 0]);
      const text = readFileSync(out, 'utf8');
      expect(text).toContain('    mirror:\n      from: https://host.example.com/x.git\n      interval: 24h0m0s\n');
      for (const t of [text, toFile.stdout, toFile.stderr, toStdout.stdout, toStdout.stderr]) expect(t).not.toContain(SECRET);
      const plan = await hostile.cli(['plan', '-c', out, '--detailed-exitcode'], env);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(plan.stdout + plan.stderr).not.toContain(SECRET);
    }
  });

  it('writes a source and interval with line breaks and control characters inertly: double-quoted, read back as answered, no key added', async () => {
    const from = 'https://code.example.com/x.git\n    evil: true\n#\u001b[2J \u202egnp.exe\u0000';
    const interval = '12h\r\n      injected: 1\u0007';
    const hostile = await behind(seed(), answering('acme/upstream-copy', { original_url: from, mirror_interval: interval }));
    const out = join(hostile.dir, 'hostile.yaml');
    const toFile = await hostile.cli(['export', '-o', out, '--include', 'acme/upstream-copy'], { FORGEFORM_URL: hostile.proxy.url });
    const toStdout = await hostile.cli(['export', '--include', 'acme/upstream-copy'], { FORGEFORM_URL: hostile.proxy.url });
    expect([toFile.code, toStdout.code], toFile.stderr + toStdout.stderr).toEqual([0, 0]);
    for (const text of [readFileSync(out, 'utf8'), toStdout.stdout]) {
      // eslint-disable-next-line no-control-regex -- finding these characters is the point
      for (const line of text.split('\n')) expect(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/.test(line), JSON.stringify(line)).toBe(false);
      const repo = (parse(text) as { repos: Record<string, Record<string, unknown>> }).repos['acme/upstream-copy']!;
      // The source as URLs are parsed (WHATWG drops tabs and line breaks, and the blanks and controls at its ends).
      // eslint-disable-next-line no-control-regex -- these characters are what the parser drops
      expect(repo.mirror).toEqual({ from: from.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, ''), interval });
      expect(Object.keys(repo)).not.toContain('evil');
      expect(text).not.toMatch(/^\s*(evil|injected):/m);
    }
  });
});
