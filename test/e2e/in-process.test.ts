/**
 * The in-process runner (test/e2e/in-process.ts) against the process it stands for: the same command
 * lines, each against a world of its own seeded alike, give the same stdout, stderr and exit code —
 * plan, a saved plan shown and applied, apply, export, a config that is refused, an unsafe plan, a
 * server that cannot be reached, no credentials, commander's own answers. This process's environment
 * is poisoned meanwhile (another server, token, --debug, retry limit): a run in process sees only the
 * environment it is given, as a child sees only cliEnv's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, world, type CliResult, type World } from './helpers.js';
import { closedPort } from '../support/loopback.js';

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'], labels: [{ name: 'kind/bug', color: 'ee0701' }] }],
  repos: [{ name: 'acme/widgets', labels: [{ name: 'a', color: '111111' }, { name: 'b', color: '222222' }] }],
};

const changes = `version: 1
repos:
  acme/widgets:
    labels:
      a: { color: "121212" }
      c: { color: "333333", description: "\${LABEL_TEXT}" }
`;

const POISON: NodeJS.ProcessEnv = {
  FORGEFORM_URL: 'http://127.0.0.1:9',
  FORGEFORM_TOKEN: 'poisoned-token-of-the-test-process',
  FORGEFORM_DEBUG: '1',
  FORGEFORM_RETRY_LIMIT: '0',
  LABEL_TEXT: 'from the test process',
  FORCE_COLOR: '1',
};
const saved: NodeJS.ProcessEnv = {};
beforeAll(() => {
  for (const [k, v] of Object.entries(POISON)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
});
afterAll(() => {
  for (const k of Object.keys(POISON)) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

/** A step of the sample: a command line in a world, with the environment beside the world's. */
type Step = (w: World, how: { process: boolean }) => Promise<CliResult>;

const STEPS: [string, Step][] = [
  ['plan --detailed-exitcode', (w, how) => w.cli(['plan', '-c', w.config(changes), '--detailed-exitcode'], { LABEL_TEXT: 'from the run' }, how)],
  ['plan --out, json', (w, how) => w.cli(['plan', '-c', w.config(changes), '--out', 'plan.json', '--format', 'json'], { LABEL_TEXT: 'from the run' }, how)],
  ['show', (w, how) => w.cli(['show', 'plan.json', '--format', 'markdown'], { LABEL_TEXT: 'from the run' }, how)],
  ['apply a saved plan without its variable', (w, how) => w.cli(['apply', 'plan.json'], {}, how)],
  ['apply', (w, how) => w.cli(['apply', '-c', w.config(changes), '--yes'], { LABEL_TEXT: 'from the run' }, how)],
  ['plan after apply', (w, how) => w.cli(['plan', '-c', w.config(changes), '--detailed-exitcode'], { LABEL_TEXT: 'from the run' }, how)],
  ['export', (w, how) => w.cli(['export', '--include', 'acme/*'], {}, how)],
  ['a refused config', (w, how) => w.cli(['plan', '-c', w.config('version: 1\nrepos:\n  acme/widgets:\n    lables: {}\n', 'bad.yaml')], {}, how)],
  ['an unsafe plan', (w, how) => w.cli(['apply', '--yes', '-c', w.config('version: 1\npolicy:\n  prune: [labels]\nrepos:\n  acme/widgets:\n    labels: {}\n', 'prune.yaml')], {}, how)],
  ['an unreachable server', async (w, how) => w.cli(['plan', '-c', w.config(changes), '--timeout', '2'], { FORGEFORM_URL: `http://127.0.0.1:${await closedPort()}`, LABEL_TEXT: 'x' }, how)],
  ['no credentials', (w, how) => w.cli(['export'], { FORGEFORM_TOKEN: undefined }, how)],
  ['--debug on an error', (w, how) => w.cli(['plan', '-c', 'missing.yaml', '--debug'], {}, how)],
  ['an unknown option', (w, how) => w.cli(['plan', '--no-such-option'], {}, how)],
  ['--version', (w, how) => w.cli(['--version'], {}, how)],
  ['export --help', (w, how) => w.cli(['export', '--help'], {}, how)],
];

/** What differs between two worlds by design: their server's address and directory, durations, and a stack's frames (the bundle's files, or tsc's). */
function comparable(w: World, r: CliResult): CliResult {
  const plain = (text: string) =>
    text
      .replaceAll(w.sandbox.url, '<server>')
      .replaceAll(w.dir, '<dir>')
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
      .replace(/\d+(\.\d+)? ?m?s\b/g, '<time>')
      .replace(/"created_at": "[^"]+"/g, '"created_at": "<time>"')
      .replace(/made \S+ by/g, 'made <time> by')
      .replace(/(\n\s+at [^\n]+)+/g, '\n    at <frames>');
  return { code: r.code, stdout: plain(r.stdout), stderr: plain(r.stderr) };
}

describe('the CLI in process and as a process', () => {
  it('gives the same stdout, stderr and exit code for each command of the sample', { timeout: 120_000 }, async () => {
    const asProcess = await world(seed);
    const inProcess = await world(seed);
    try {
      for (const [name, step] of STEPS) {
        const a = comparable(asProcess, await step(asProcess, { process: true }));
        const b = comparable(inProcess, await step(inProcess, { process: false }));
        expect({ name, ...b }).toEqual({ name, ...a });
      }
    } finally {
      await asProcess.sandbox.close();
      await inProcess.sandbox.close();
    }
  });

  it('refuses two runs at once in one process, and runs the next one after a failure', async () => {
    const w = await world(seed);
    try {
      const both = Promise.allSettled([w.cli(['--version']), w.cli(['--version'])]);
      const [first, second] = await both;
      expect(first).toMatchObject({ status: 'fulfilled', value: { code: 0 } });
      expect(second).toMatchObject({ status: 'rejected', reason: { message: expect.stringContaining('need a process each (process: true)') as unknown } });
      const after = await runCli(['plan', '-c', w.config(changes)], { env: { ...w.env, LABEL_TEXT: 'x' }, cwd: w.dir });
      expect(after.code, after.stderr).toBe(0);
      expect(process.exitCode).toBeUndefined();
    } finally {
      await w.sandbox.close();
    }
  });
});
