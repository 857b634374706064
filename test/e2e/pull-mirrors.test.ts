// Pull mirrors end to end: repositories created as mirrors (POST /repos/migrate), their interval changed in
// place (PATCH mirror_interval); the built CLI against the sandbox, on every flavour (every release serves both).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import { bodyOf, requestsTo, writes, world, type World } from './helpers.js';

const PASSWORD = 'pull"mirr\\ör-Tk29';
const env = { UPSTREAM_TOKEN: PASSWORD };

const seed = (extra: Partial<SeedFile> = {}): SeedFile => ({
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/plain' }, { name: 'acme/upstream-copy', mirror: { from: 'https://code.example.com/upstream/copy.git', interval: '24h' } }],
  ...extra,
});

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
afterEach(async () => w?.sandbox.close());

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
      expect(plan.stdout).toMatch(/\+ password\s+= \(sensitive\)/);
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
