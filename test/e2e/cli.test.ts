import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, calls, runCli, spawnCli, world, type World } from './helpers.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'], labels: [{ name: 'kind/bug', color: 'ee0701', exclusive: true }] }],
  repos: [
    { name: 'acme/widgets', labels: [{ name: 'a', color: '111111' }, { name: 'b', color: '222222' }, { name: 'c', color: '333333' }], branch_protections: [{ rule_name: 'main', enable_push: false, required_approvals: 1 }] },
    { name: 'acme/gadgets', labels: [{ name: 'x', color: '444444', description: 'line one\nline two\nline three' }] },
  ],
};

let w: World;
afterEach(async () => w?.sandbox.close());

const changeOne = `version: 1
repos:
  acme/widgets:
    labels:
      a: { color: "121212" }
`;

describe('the CLI', () => {
  it('exit codes: 0 without changes, 2 with --detailed-exitcode and changes, 3 for an unsafe plan', async () => {
    w = await world(seed);
    expect((await w.cli(['plan', '-c', w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      a: { color: "111111" }\n'), '--detailed-exitcode'])).code).toBe(0);
    const changes = await w.cli(['plan', '-c', w.config(changeOne), '--detailed-exitcode']);
    expect(changes.code).toBe(2);
    expect((await w.cli(['plan', '-c', w.config(changeOne)])).code).toBe(0);
    const unsafe = w.config(`version: 1
policy: { prune: [labels], max_deletes: 1 }
repos:
  acme/widgets:
    labels:
      a: { color: "111111" }
`);
    const plan = await w.cli(['plan', '-c', unsafe]);
    expect(plan.code).toBe(3);
    expect(plan.stdout).toContain('Unsafe: 2 deletions planned, more than policy.max_deletes (1)');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', unsafe, '--yes']);
    expect(apply.code).toBe(3);
    expect(apply.stderr).toContain('Pass --force');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
    const forced = await w.cli(['apply', '-c', unsafe, '--yes', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('2 deleted');
  });

  it('apply asks for --yes when not on a terminal, and changes nothing', async () => {
    w = await world(seed);
    // What the process's stdin is (a pipe, no terminal): a process of its own.
    const r = await w.cli(['apply', '-c', w.config(changeOne)], {}, { process: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('pass --yes');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
  });

  it('saves a plan file and applies exactly it; a stale change is refused', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/widgets:
    labels:
      a: { color: "121212" }
      b: { color: "232323" }
`);
    const planFile = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', file, '--out', planFile]);
    expect(plan.code).toBe(0);
    const saved = JSON.parse(readFileSync(planFile, 'utf8'));
    expect(saved).toMatchObject({ format_version: 1, server: { url: w.sandbox.url, flavour: 'gitea', version: '1.26.0' }, summary: { create: 0, update: 2, delete: 0, rename: 0 } });
    expect(saved.changes[0]).toMatchObject({ kind: 'repo_label', key: 'a', action: 'update', ops: [{ method: 'PATCH' }] });
    expect(saved.changes[0].precondition.digest).toMatch(/^[0-9a-f]{16}$/);
    // someone edits label b between plan and apply
    const b = (await w.api<{ id: number; name: string }[]>('GET', 'repos/acme/widgets/labels')).body.find((l) => l.name === 'b')!;
    await w.api('PATCH', `repos/acme/widgets/labels/${b.id}`, { description: 'edited by hand' });
    w.sandbox.clearRequests();
    const apply = await runCli(['apply', planFile], { env: { FORGEFORM_URL: w.sandbox.url, FORGEFORM_TOKEN: ADMIN_TOKEN, NO_COLOR: '1' } });
    expect(apply.code).toBe(1);
    // A saved plan runs whole or not at all: "a" still holds, but is not applied without "b".
    expect(apply.stdout).not.toContain('✓');
    expect(apply.stdout).toMatch(/✗ ~ label "b" in repo:acme\/widgets: changed on the server since the plan was made \(stale plan\)/);
    expect(apply.stderr).toContain('Refusing the plan file: 1 of 2 changes no longer holds on the server as it is now');
    const writes = calls(w.sandbox).filter((c) => !c.startsWith('GET'));
    expect(writes).toEqual([]);
  });

  it('prints json and markdown, and never colour without a terminal', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/gadgets:
    labels:
      x: { color: "444444", description: "line one\\nline 2\\nline three" }
`);
    const json = await w.cli(['plan', '-c', file, '--format', 'json']);
    expect(JSON.parse(json.stdout).changes[0].fields).toEqual([{ path: 'description', before: 'line one\nline two\nline three', after: 'line one\nline 2\nline three' }]);
    const md = await w.cli(['plan', '-c', file, '--format', 'markdown']);
    expect(md.stdout).toContain('### forgeform plan');
    expect(md.stdout).toContain('```diff');
    // What the process's stdout is (a pipe, no terminal): a process of its own.
    const text = await w.cli(['plan', '-c', file], { FORCE_COLOR: undefined }, { process: true });
    expect(text.stdout).not.toContain('\u001b[');
    // multi-line text as a unified diff
    expect(text.stdout).toMatch(/@@ -1,3 \+1,3 @@\n\s+ line one\n\s+-line two\n\s+\+line 2\n\s+ line three/);
  });

  it('export writes a config that plans no changes against the same server', async () => {
    w = await world(seed);
    const exported = `${w.dir}/exported.yaml`;
    const r = await w.cli(['export', '--include', 'acme/*', '--include', 'acme', '-o', exported]);
    expect(r.code).toBe(0);
    const text = readFileSync(exported, 'utf8');
    expect(text).toContain('acme/widgets:');
    expect(text).toContain('kind/bug:');
    expect(text).toContain('main:');
    const plan = await w.cli(['plan', '-c', exported, '--detailed-exitcode']);
    expect(plan.stderr).toBe(plan.stderr.replace(/error/gi, ''));
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');
  });

  it('names the status and message of a refused credential, without printing the token', async () => {
    w = await world(seed);
    const r = await w.cli(['plan', '-c', w.config(changeOne)], { FORGEFORM_TOKEN: 'wrong-token-value' });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/401 Unauthorized: invalid username, password or token/);
    expect(r.stdout + r.stderr).not.toContain('wrong-token-value');
  });

  it('masks a value read from the environment in every output, in a field that is not secret too (issue 28 item 3)', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      a: { color: "111111", description: "${TEXT}" }\n');
    const r = await w.cli(['plan', '-c', file, '--format', 'json'], { TEXT: 'plain-text-from-env' });
    expect(r.stdout).not.toContain('plain-text-from-env');
    expect(r.stdout).toContain('"after": "(sensitive)"');
  });
});

describe('forgeform sandbox', () => {
  // --flavour is the option's name; --flavor, its first spelling, keeps working for the scripts that use it.
  for (const option of ['--flavour', '--flavor']) {
    it(`plays the release ${option} names`, async () => {
      const cli = spawnCli(['sandbox', '--port', '0', option, 'forgejo@11']);
      try {
        for (let i = 0; i < 200 && !cli.output().stdout.includes('\n'); i++) await new Promise((r) => setTimeout(r, 25));
        const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.output().stdout)?.[1];
        expect(url, cli.output().stderr).toBeDefined();
        expect(await (await fetch(`${url}/api/forgejo/v1/version`)).json()).toEqual({ version: expect.stringMatching(/^11\./) as unknown });
      } finally {
        cli.child.kill('SIGTERM');
        await cli.done;
      }
    });
  }
});
