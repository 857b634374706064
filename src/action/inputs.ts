import * as core from '@actions/core';
import { PLAN_FORMATS, type PlanFormat } from '../render/formats.js';

export type Command = 'plan' | 'apply' | 'drift';
export type Format = PlanFormat;

/** The action's inputs, read from the `INPUT_*` variables that action.yml maps explicitly. */
export interface Inputs {
  command: Command;
  config: string[];
  url: string;
  token: string;
  /** Read-only token for plan and drift (and apply's own planning); '' = use `token`. */
  planToken: string;
  planFile: string;
  format: Format;
  comment: boolean;
  githubToken: string;
  force: boolean;
  rotateSecrets: boolean;
  concurrency: string;
  target: string[];
  /** K/N: the K-th of N parts of the configuration (a matrix job), or '' for all of it. */
  shard: string;
  workingDirectory: string;
  driftTitle: string;
  /** apply: title of the issue that says a merged change was not applied. */
  notAppliedTitle: string;
  /** drift: fail the step when the server drifted. */
  failOnDrift: boolean;
  /** plan: only what the configuration changed since this git ref ('' = everything). */
  changedOnly: string;
  /** plan: rehearse the plan on a copy (plan --rehearse); undefined = on for pull requests. */
  rehearse: boolean | undefined;
}

export class InputError extends Error {}

/**
 * action.yml maps input `plan-file` to INPUT_PLAN_FILE (underscores: `sh` drops variables whose
 * names have a hyphen, so INPUT_PLAN-FILE would not survive every runner shell).
 */
const envName = (name: string) => name.replace(/-/g, '_');
const get = (name: string) => core.getInput(envName(name));

function oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T {
  const v = get(name) || fallback;
  if (!(allowed as readonly string[]).includes(v)) throw new InputError(`input ${name} must be one of ${allowed.join(', ')}, got "${v}"`);
  return v as T;
}

/** `core.getBooleanInput`, but an unset input takes the default instead of throwing. */
function bool(name: string, fallback: boolean): boolean {
  if (get(name) === '') return fallback;
  try {
    return core.getBooleanInput(envName(name));
  } catch {
    throw new InputError(`input ${name} must be true or false, got "${get(name)}"`);
  }
}

/** One value per line (commas also separate config paths, which never contain one in practice). */
function list(name: string, splitCommas: boolean): string[] {
  return core
    .getMultilineInput(envName(name))
    .flatMap((l) => (splitCommas ? l.split(',') : [l]))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** K/N with 1 ≤ K ≤ N, as --shard takes it (checked here, so that a typo fails before planning), or ''. */
function shardInput(): string {
  const text = get('shard').trim();
  if (!text) return '';
  const m = /^(\d+)\s*\/\s*(\d+)$/.exec(text);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > Number(m[2])) throw new InputError(`input shard must be K/N with 1 ≤ K ≤ N (e.g. 2/4, from a matrix), got "${text}"`);
  return `${Number(m[1])}/${Number(m[2])}`;
}

/**
 * `changed-only`: `true` plans what changed since the pull request's base commit (needs a checkout
 * deep enough to hold it: `fetch-depth: 0`); any other non-empty value is a git ref; `false` or '' = all.
 */
function changedOnlyInput(): string {
  const v = get('changed-only').trim();
  if (v === '' || v === 'false') return '';
  if (/^-/.test(v) || /\s/.test(v)) throw new InputError(`input changed-only must be true, false or a git ref, got "${v}"`);
  return v;
}

export function readInputs(): Inputs {
  const concurrency = get('concurrency');
  if (concurrency && !(/^[1-9]\d*$/.test(concurrency) && Number(concurrency) <= 64)) throw new InputError(`input concurrency must be a whole number from 1 to 64, got "${concurrency}"`);
  const shard = shardInput();
  return {
    command: oneOf('command', ['plan', 'apply', 'drift'] as const, 'plan'),
    config: list('config', true),
    url: get('url'),
    token: get('token'),
    planToken: get('plan-token'),
    planFile: get('plan-file'),
    format: oneOf('format', PLAN_FORMATS, 'text'),
    comment: bool('comment', false),
    githubToken: get('github-token'),
    force: bool('force', false),
    rotateSecrets: bool('rotate-secrets', false),
    concurrency,
    target: list('target', false),
    shard,
    workingDirectory: get('working-directory') || '.',
    // Each shard keeps its own drift issue: one shard without drift must not close another's.
    driftTitle: get('drift-title') || `forgeform: drift detected${shard ? ` (shard ${shard})` : ''}`,
    notAppliedTitle: `forgeform: merged but not applied${shard ? ` (shard ${shard})` : ''}`,
    failOnDrift: bool('fail-on-drift', false),
    changedOnly: changedOnlyInput(),
    rehearse: get('rehearse') === '' ? undefined : bool('rehearse', false),
  };
}
