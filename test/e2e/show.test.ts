/**
 * `forgeform show PLANFILE` (issue 30): a saved plan printed in every format as plan printed it, with no server, no
 * URL and no token; JSON is the plan file itself. A file that is not a plan is refused as apply refuses it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, world, type World } from './helpers.js';
import { rootAnd } from '../support/seeds.js';

let w: World;
let planFile: string;
const SECRET = 'show-test-secret-value';
const config = `version: 1
policy: { prune: [labels] }
users:
  carol: { email: carol@example.com, password: "\${CAROL_PASSWORD}" }
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, description: "Something is not working" }
      feature: { color: 00ff00 }
    branch_protections:
      main: { required_approvals: 2 }
`;

beforeAll(async () => {
  w = await world({ users: rootAnd(), orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets', labels: [{ name: 'old', color: '999999' }] }] });
  planFile = join(w.dir, 'plan.json');
  const saved = await w.cli(['plan', '-c', w.config(config), '--out', planFile], { CAROL_PASSWORD: SECRET });
  expect(saved.code, saved.stderr).toBe(0);
});
afterAll(async () => w.sandbox.close());

/** The CLI with no server and no credentials in its environment at all. */
const offline = (args: string[]) => runCli(args, { cwd: w.dir });

describe('forgeform show', () => {
  it.each([['text'], ['markdown']] as const)('prints a saved plan in %s as plan printed it, without a server', async (format) => {
    const planned = await w.cli(['plan', '-c', join(w.dir, 'forgeform.yaml'), '--format', format], { CAROL_PASSWORD: SECRET });
    const before = w.sandbox.requests().length;
    const shown = await offline(['show', planFile, '--format', format]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toBe(planned.stdout);
    expect(shown.stdout).toContain('4 to create, 0 to update, 1 to delete, 0 to rename');
    expect(shown.stderr).toMatch(/^Saved plan .*plan\.json, made \d{4}-\d\d-\d\dT.* by forgeform \S+: shown as saved, without asking the server/m);
    expect(shown.stdout + shown.stderr).not.toContain(SECRET);
    expect(w.sandbox.requests().length).toBe(before);
  });

  it('prints the plan file itself with --format json (secrets stay references)', async () => {
    const shown = await offline(['show', planFile, '--format', 'json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toEqual(JSON.parse(readFileSync(planFile, 'utf8')));
    expect(shown.stdout).toContain('{"$env":"${CAROL_PASSWORD}"}');
    expect(shown.stdout).not.toContain(SECRET);
  });

  it('refuses a file that is not a plan, naming what is wrong, exit 1', async () => {
    const edited = JSON.parse(readFileSync(planFile, 'utf8')) as { changes: { action: string }[] };
    edited.changes[0]!.action = 'explode';
    const bad = join(w.dir, 'bad-plan.json');
    writeFileSync(bad, JSON.stringify(edited));
    const shown = await offline(['show', bad]);
    expect(shown.code).toBe(1);
    expect(shown.stderr).toContain(`${bad} is not a plan this forgeform can show`);
    expect(shown.stdout).toBe('');
    const missing = await offline(['show', join(w.dir, 'nothing.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read plan file .*nothing\.json: ENOENT/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
