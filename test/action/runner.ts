/**
 * Runs action.yml as a runner does: the composite step's `run:` in bash, with the step's `env:`
 * mapping evaluated from the inputs (no INPUT_* of our own), GITHUB_OUTPUT, GITHUB_STEP_SUMMARY,
 * GITHUB_EVENT_PATH and GITHUB_API_URL. The action directory is a fresh checkout-like copy:
 * action.yml, the bundle built from the current source, package.json and schemas/.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { parse } from 'yaml';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

interface ActionYml {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: { id?: string; shell: string; env?: Record<string, string>; run: string }[] };
}

/** Builds the bundle into a temporary action directory (the committed one may lag behind src/ while developing). */
export function buildActionDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'forgeform-action-'));
  const r = spawnSync(process.execPath, [join(ROOT, 'scripts/build-action.mjs'), join(dir, 'dist/action/index.js')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bundling failed: ${r.stderr}`);
  copyFileSync(join(ROOT, 'action.yml'), join(dir, 'action.yml'));
  symlinkSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'schemas'), join(dir, 'schemas'));
  return dir;
}

export interface RunnerEnv {
  workspace: string;
  apiUrl: string;
  repository: string;
  /** The workflow's own token (github.token). */
  githubToken: string;
  event: unknown;
  eventName?: string;
  sha?: string;
  /** Variables of the job (secrets the config interpolates, FORGEFORM_*). */
  env?: Record<string, string>;
}

export interface StepResult {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/** `name<<DELIMITER\nvalue\nDELIMITER` entries, as the runner reads $GITHUB_OUTPUT. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<=]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join('\n');
  }
  return out;
}

function evaluate(template: string, scope: { inputs: Record<string, string>; github: Record<string, string> }): string {
  return template.replace(/\$\{\{\s*([a-z]+)\.([a-z_-]+)\s*\}\}/g, (m, ns: string, name: string) => {
    const v = (scope as Record<string, Record<string, string>>)[ns]?.[name];
    if (v === undefined) throw new Error(`the test runner cannot evaluate ${m}`);
    return v;
  });
}

let counter = 0;

export async function runAction(actionDir: string, inputs: Record<string, string>, runner: RunnerEnv): Promise<StepResult> {
  const yml = parse(readFileSync(join(actionDir, 'action.yml'), 'utf8')) as ActionYml;
  if (yml.runs.using !== 'composite') throw new Error('not a composite action');
  for (const name of Object.keys(inputs)) if (!(name in yml.inputs)) throw new Error(`action.yml has no input ${name}`);
  const github = { action_path: actionDir, token: runner.githubToken };
  const resolved: Record<string, string> = {};
  for (const [name, def] of Object.entries(yml.inputs)) resolved[name] = inputs[name] ?? evaluate(def.default ?? '', { inputs: {}, github });

  const files = join(runner.workspace, '..', `runner-${process.pid}-${++counter}`);
  mkdirSync(files, { recursive: true });
  const outputFile = join(files, 'output');
  const summaryFile = join(files, 'summary');
  const eventFile = join(files, 'event.json');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  writeFileSync(eventFile, JSON.stringify(runner.event));
  const apiUrl = new URL(runner.apiUrl);

  let stdout = '';
  let stderr = '';
  let code: number | null = 0;
  for (const step of yml.runs.steps) {
    expect(step.shell).toBe('bash');
    const stepEnv: Record<string, string> = {};
    for (const [k, v] of Object.entries(step.env ?? {})) stepEnv[k] = evaluate(v, { inputs: resolved, github });
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_WORKSPACE: runner.workspace,
      GITHUB_OUTPUT: outputFile,
      GITHUB_STEP_SUMMARY: summaryFile,
      GITHUB_EVENT_PATH: eventFile,
      GITHUB_EVENT_NAME: runner.eventName ?? 'pull_request',
      GITHUB_API_URL: runner.apiUrl,
      GITHUB_SERVER_URL: apiUrl.origin,
      GITHUB_REPOSITORY: runner.repository,
      GITHUB_SHA: runner.sha ?? '0000000000000000000000000000000000000000',
      GITHUB_RUN_ID: '4711',
      GITHUB_ACTION_PATH: actionDir,
      RUNNER_TEMP: join(files, 'tmp'),
      FORGEFORM_RETRY_DELAY_MS: '5',
      ...runner.env,
      ...stepEnv,
    };
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((res, rej) => {
      const child = spawn('bash', ['-e', '-c', evaluate(step.run, { inputs: resolved, github })], { cwd: runner.workspace, env });
      let o = '';
      let e = '';
      child.stdout.on('data', (d: Buffer) => (o += d.toString()));
      child.stderr.on('data', (d: Buffer) => (e += d.toString()));
      child.on('error', rej);
      child.on('close', (c) => res({ code: c, stdout: o, stderr: e }));
    });
    stdout += r.stdout;
    stderr += r.stderr;
    code = r.code;
    if (code !== 0) break;
  }
  return { code, stdout, stderr, outputs: parseOutputFile(readFileSync(outputFile, 'utf8')), summary: existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '' };
}
