import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../e2e/helpers.js';
import { ROOT } from './runner.js';

interface Step {
  uses?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Workflow {
  on: unknown;
  jobs: Record<string, { steps: Step[]; environment?: unknown; 'runs-on'?: unknown }>;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
}

const GITOPS = join(ROOT, 'examples/gitops');
const inputs = Object.keys((parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { inputs: Record<string, unknown> }).inputs);
const configText = readdirSync(join(GITOPS, 'config'))
  .map((f) => readFileSync(join(GITOPS, 'config', f), 'utf8'))
  .join('\n');
const configVariables = [...new Set([...configText.matchAll(/\$\{(?:env:)?([A-Za-z_]\w*)\}/g)].map((m) => m[1]!))];

const workflows: [string, Workflow][] = ['.github/workflows', '.gitea/workflows'].flatMap((dir) =>
  readdirSync(join(GITOPS, dir)).map((f): [string, Workflow] => [`${dir}/${f}`, parse(readFileSync(join(GITOPS, dir, f), 'utf8')) as Workflow]),
);
/** The workflows of docs/ci.md: each block starts with a comment naming its file ("(sharded)" for the matrix ones). */
const docBlocks = [...readFileSync(join(ROOT, 'docs/ci.md'), 'utf8').matchAll(/```yaml\n# (\.(?:github|gitea)\/workflows\/[^\n]+)\n([\s\S]*?)```/g)].map((m): [string, Workflow] => [`docs/ci.md ${m[1]}`, parse(m[2]!) as Workflow]);
const forgeformSteps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps.filter((s) => /forgeform@/.test(s.uses ?? '')));

describe('the GitOps example repository and the copy-paste workflows', () => {
  it('has plan, apply and drift workflows for both forges, and the docs show all six, and the sharded plan and apply', () => {
    expect(workflows.map(([n]) => n).sort()).toEqual(
      ['.gitea/workflows/forgeform-apply.yml', '.gitea/workflows/forgeform-drift.yml', '.gitea/workflows/forgeform-plan.yml', '.github/workflows/forgeform-apply.yml', '.github/workflows/forgeform-drift.yml', '.github/workflows/forgeform-plan.yml'].sort(),
    );
    expect(docBlocks.map(([n]) => n)).toEqual([
      ...['plan', 'apply', 'drift'].map((c) => `docs/ci.md .github/workflows/forgeform-${c}.yml`),
      ...['plan', 'apply', 'drift'].map((c) => `docs/ci.md .gitea/workflows/forgeform-${c}.yml`),
      ...['github', 'gitea'].flatMap((f) => ['plan', 'apply'].map((c) => `docs/ci.md .${f}/workflows/forgeform-${c}.yml (sharded)`)),
    ]);
  });

  it('shows in docs/ci.md exactly the workflows of the example repository', () => {
    for (const [name, w] of docBlocks.filter(([n]) => !n.endsWith('(sharded)'))) {
      const file = name.replace('docs/ci.md ', '');
      expect(w, file).toEqual(workflows.find(([n]) => n === file)![1]);
    }
  });

  it('never hands a pull request the write token or a real write-only value, and fixes the server outside it', () => {
    for (const [name, w] of [...workflows, ...docBlocks]) {
      for (const s of forgeformSteps(w)) {
        expect(s.with?.url, name).toBe('${{ vars.FORGEFORM_URL }}');
        if (s.with?.command === 'apply') continue;
        expect(s.with?.token, name).toBeUndefined();
        expect(s.with?.['plan-token'], name).toBe('${{ secrets.FORGEFORM_PLAN_TOKEN }}');
        for (const v of Object.values(s.env ?? {})) expect(v, name).not.toMatch(/secrets\./);
      }
    }
  });

  it('on GitHub, keeps the write token in an environment that a push to main reaches and a pull request does not', () => {
    for (const [name, w] of [...workflows, ...docBlocks].filter(([n]) => n.includes('.github/workflows/forgeform-apply'))) {
      expect(w.on, name).toEqual({ push: { branches: ['main'] } });
      expect(Object.values(w.jobs)[0]!, name).toMatchObject({ environment: 'forge-admin' });
    }
  });

  it('on Gitea, runs apply and drift on the one-job-at-a-time runner label', () => {
    for (const [name, w] of [...workflows, ...docBlocks].filter(([n]) => n.includes('.gitea/') && !n.includes('plan'))) expect(Object.values(w.jobs)[0]!, name).toMatchObject({ 'runs-on': 'forgeform-serial' });
  });

  it('runs the action by $GITHUB_ACTION_PATH, which works in container jobs', () => {
    const action = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as { runs: { steps: { run: string }[] } };
    expect(action.runs.steps.map((s) => s.run)).toEqual(['node "$GITHUB_ACTION_PATH/dist/action/index.js"']);
  });

  it.each([...workflows, ...docBlocks])('%s passes only inputs the action has', (_name, w) => {
    const steps = forgeformSteps(w);
    expect(steps).toHaveLength(1);
    for (const s of steps) for (const key of Object.keys(s.with ?? {})) expect(inputs).toContain(key);
  });

  it.each(workflows)('%s gives the action every variable the config reads', (_name, w) => {
    for (const s of forgeformSteps(w)) expect(Object.keys(s.env ?? {}).sort()).toEqual(configVariables.sort());
  });

  it.each([...workflows, ...docBlocks].filter(([, w]) => forgeformSteps(w).some((s) => s.with?.command === 'apply')))('%s never runs two applies at once', (_name, w) => {
    expect(w.concurrency).toEqual({ group: 'forgeform-apply', 'cancel-in-progress': false });
  });

  it.each([...workflows, ...docBlocks].filter(([, w]) => forgeformSteps(w).some((s) => s.with?.command === 'drift')))('%s has its own group: a drift check never cancels a pending apply', (_name, w) => {
    expect(w.concurrency).toEqual({ group: 'forgeform-drift', 'cancel-in-progress': false });
  });

  it('has a configuration that validates', async () => {
    const env = Object.fromEntries(configVariables.map((v) => [v, `value-of-${v}`]));
    // The example as a user runs it: the built CLI, a process.
    const r = await runCli(['validate', '-c', join(GITOPS, 'config')], { env, process: true });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
