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
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  jobs: Record<string, { steps: Step[] }>;
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
const docBlocks = [...readFileSync(join(ROOT, 'docs/ci.md'), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)].map((m, i): [string, Workflow] => [`docs/ci.md block ${i + 1}`, parse(m[1]!) as Workflow]);
const forgeformSteps = (w: Workflow) => Object.values(w.jobs).flatMap((j) => j.steps.filter((s) => /forgeform@/.test(s.uses ?? '')));

describe('the GitOps example repository and the copy-paste workflows', () => {
  it('has plan, apply and drift workflows for both forges, and the docs show all six, and the sharded plan and apply', () => {
    expect(workflows.map(([n]) => n).sort()).toEqual(
      ['.gitea/workflows/forgeform-apply.yml', '.gitea/workflows/forgeform-drift.yml', '.gitea/workflows/forgeform-plan.yml', '.github/workflows/forgeform-apply.yml', '.github/workflows/forgeform-drift.yml', '.github/workflows/forgeform-plan.yml'].sort(),
    );
    expect(docBlocks).toHaveLength(8);
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
    const r = await runCli(['validate', '-c', join(GITOPS, 'config')], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});
