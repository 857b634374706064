// A repository whose Actions unit is off (has_actions: false), end to end with the built CLI: Forgejo 15 answers
// 404 to every Actions route of such a repository (reqOwner(unit.TypeActions), src/sandbox/NOTES.md), so its
// secrets and variables are a plan error at their place unless the same plan turns the unit on, and then they wait
// for that change; Gitea 1.26 serves them whatever the unit.
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { writes, world, type World } from './helpers.js';

const seed: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', has_actions: false }],
};

const ENV = { DEPLOY_KEY: 'deploy-value-Hs27xa' };
const ACTIONS = '    secrets:\n      DEPLOY: { value: "${DEPLOY_KEY}" }\n    variables:\n      STAGE: { value: prod }\n';
const ONLY_ACTIONS = `version: 1\nrepos:\n  acme/widgets:\n${ACTIONS}`;
const WITH_UNIT_ON = `version: 1\nrepos:\n  acme/widgets:\n    settings:\n      has_actions: true\n${ACTIONS}`;
/** The writes of the Actions kinds and of the repository's settings, in the order made (the lock's left out). */
const actionsWrites = (w: World) => writes(w.sandbox).filter((c) => /^(PATCH repos\/acme\/widgets$|\w+ repos\/acme\/widgets\/actions\/)/.test(c));

let w: World;
afterEach(async () => w?.sandbox.close());

describe('forgejo@15: a repository with its Actions unit off', () => {
  it('each declared secret and variable is a plan error at its place naming the repository, the 404 and the server message; nothing is written', async () => {
    w = await world(seed, { flavour: 'forgejo@15' });
    const file = w.config(ONLY_ACTIONS);
    const plan = await w.cli(['plan', '-c', file], ENV);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    const unitOff = (what: string) =>
      `repository acme/widgets has its Actions unit disabled (has_actions: false), and Forgejo 15.0.3 serves none of its Actions routes then (Actions ${what} of acme/widgets: GET /api/v1/repos/acme/widgets/actions/${what} → 404 Not Found: The target couldn't be found.)`;
    expect(plan.stderr).toContain(`forgeform.yaml:5:7: Actions secret "DEPLOY" in acme/widgets: ${unitOff('secrets')}`);
    expect(plan.stderr).toContain(`forgeform.yaml:7:7: Actions variable "STAGE" in acme/widgets: ${unitOff('variables')}`);
    expect(plan.stderr).toContain('set has_actions: true in repos."acme/widgets".settings');
    const apply = await w.cli(['apply', '-c', file, '--yes'], ENV);
    expect(apply.code).toBe(1);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('with has_actions: true in its settings, the plan turns the unit on first and the Actions writes wait for it; the next plan is empty', async () => {
    w = await world(seed, { flavour: 'forgejo@15' });
    const file = w.config(WITH_UNIT_ON);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain('Plan: 2 to create, 1 to update, 0 to delete');
    const apply = await w.cli(['apply', '-c', file, '--yes'], ENV);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(actionsWrites(w)).toEqual(['PATCH repos/acme/widgets', 'PUT repos/acme/widgets/actions/secrets/DEPLOY', 'POST repos/acme/widgets/actions/variables/STAGE']);
    expect((await w.api<{ name: string }[]>('GET', 'repos/acme/widgets/actions/secrets')).body.map((s) => s.name)).toEqual(['DEPLOY']);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('a saved plan that turns the unit on is applied in the same order', async () => {
    w = await world(seed, { flavour: 'forgejo@15' });
    const file = w.config(WITH_UNIT_ON);
    const planFile = `${w.dir}/unit.plan`;
    const plan = await w.cli(['plan', '-c', file, '--out', planFile], ENV);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const apply = await w.cli(['apply', planFile, '--yes'], ENV);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(actionsWrites(w)).toEqual(['PATCH repos/acme/widgets', 'PUT repos/acme/widgets/actions/secrets/DEPLOY', 'POST repos/acme/widgets/actions/variables/STAGE']);
  });

  it('an empty section with prune: a warning that nothing could be read, nothing deleted', async () => {
    w = await world(seed, { flavour: 'forgejo@15' });
    const file = w.config('version: 1\npolicy:\n  prune: [secrets, variables]\nrepos:\n  acme/widgets:\n    secrets: {}\n    variables: {}\n');
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout + plan.stderr).toContain("Actions secrets of repository acme/widgets were not read: its Actions unit is disabled (Actions secrets of acme/widgets: GET /api/v1/repos/acme/widgets/actions/secrets → 404 Not Found: The target couldn't be found.");
    expect(plan.stdout + plan.stderr).toContain("Actions variables of repository acme/widgets were not read");
  });
});

describe('a plan that turns the Actions unit off while declaring Actions secrets and variables', () => {
  const on: SeedFile = { ...seed, repos: [{ name: 'acme/widgets' }] };
  const TURN_OFF = `version: 1\nrepos:\n  acme/widgets:\n    settings:\n      has_actions: false\n${ACTIONS}`;

  it('forgejo@15: a plan error at each declared name (the routes would answer 404 afterwards); nothing written', async () => {
    w = await world(on, { flavour: 'forgejo@15' });
    const plan = await w.cli(['plan', '-c', w.config(TURN_OFF)], ENV);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stderr).toContain(
      'forgeform.yaml:7:7: Actions secret "DEPLOY" in acme/widgets: repository acme/widgets: its settings turn has_actions off in this plan, and Forgejo 15.0.3 serves none of a repository\'s Actions routes without the unit (404)',
    );
    expect(plan.stderr).toContain('forgeform.yaml:9:7: Actions variable "STAGE" in acme/widgets: repository acme/widgets: its settings turn has_actions off');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('gitea@1.26: planned and applied (its Actions routes do not depend on the unit)', async () => {
    w = await world(on, { flavour: 'gitea@1.26' });
    const file = w.config(TURN_OFF);
    const apply = await w.cli(['apply', '-c', file, '--yes'], ENV);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});

describe('gitea@1.26: the Actions routes of a repository with its Actions unit off are served', () => {
  it('plan → apply → plan empty, without turning the unit on', async () => {
    w = await world(seed, { flavour: 'gitea@1.26' });
    const file = w.config(ONLY_ACTIONS);
    const apply = await w.cli(['apply', '-c', file, '--yes'], ENV);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(actionsWrites(w)).toEqual(['PUT repos/acme/widgets/actions/secrets/DEPLOY', 'POST repos/acme/widgets/actions/variables/STAGE']);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
