/**
 * Shape checks of the seed file, shared by every seed section: each names the path of a bad value,
 * so that a seed mistake reads like `repos[0].lables: unknown key`.
 */
import type { RepoRecord, SandboxState, UserRecord } from './state.js';

export class SeedError extends Error {
  override name = 'SeedError';
}

export type Obj = Record<string, unknown>;

export const VISIBILITIES = ['public', 'limited', 'private'] as const;

export function obj(v: unknown, path: string, keys: string[]): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new SeedError(`${path}: expected a mapping`);
  for (const k of Object.keys(v)) {
    if (!keys.includes(k)) throw new SeedError(`${path}.${k}: unknown key (expected one of: ${keys.join(', ')})`);
  }
  return v as Obj;
}

export function list(v: unknown, path: string): unknown[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new SeedError(`${path}: expected a list`);
  return v;
}

export function str(v: unknown, path: string, required = false): string | undefined {
  if (v === undefined || v === null) {
    if (required) throw new SeedError(`${path}: required`);
    return undefined;
  }
  if (typeof v === 'number') return String(v);
  if (typeof v !== 'string') throw new SeedError(`${path}: expected a string`);
  return v;
}

export function bool(v: unknown, path: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new SeedError(`${path}: expected true or false`);
  return v;
}

export function integer(v: unknown, path: string, min = Number.MIN_SAFE_INTEGER): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new SeedError(`${path}: expected ${min === 0 ? 'a whole number' : 'an integer'}`);
  return v;
}

export function strings(v: unknown, path: string): string[] {
  return list(v, path).map((x, i) => str(x, `${path}[${i}]`, true)!);
}

export function oneOf<T extends string>(v: unknown, path: string, allowed: readonly T[]): T | undefined {
  const s = str(v, path);
  if (s === undefined) return undefined;
  if (!allowed.includes(s as T)) throw new SeedError(`${path}: expected one of ${allowed.join(', ')}, got ${JSON.stringify(s)}`);
  return s as T;
}

export function requireUser(state: SandboxState, name: string, path: string): UserRecord {
  const u = state.userByName(name);
  if (!u) throw new SeedError(`${path}: no user ${JSON.stringify(name)} in the seed`);
  return u;
}

/** A date (any form `Date.parse` reads), as Gitea renders it: RFC 3339, seconds, UTC. */
export function time(v: unknown, path: string): string | undefined {
  const s = str(v, path);
  if (s === undefined) return undefined;
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) throw new SeedError(`${path}: not a date: ${JSON.stringify(s)}`);
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** An `owner/name` of a seeded repository. */
export function requireRepo(state: SandboxState, full: string, path: string): RepoRecord {
  const m = /^([^/]+)\/([^/]+)$/.exec(full);
  const owner = m ? state.ownerByName(m[1]!) : undefined;
  const repo = owner && m ? state.repoByName(owner.id, m[2]!) : undefined;
  if (!repo) throw new SeedError(`${path}: no repository ${JSON.stringify(full)} in the seed`);
  return repo;
}
