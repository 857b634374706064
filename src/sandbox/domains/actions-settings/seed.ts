/**
 * Seed keys `orgs[].secrets`, `orgs[].variables`, `repos[].secrets`, `repos[].variables` (README.md): by
 * name, a value or `{ value, description }`, stored as the PUT and POST routes store them (name upper-cased,
 * CRLF as LF for variables).
 */
import type { NestedSeed, SeedContext } from '../../core/domain.js';
import { obj, SeedError, str, type Obj } from '../../core/seed-shape.js';
import { nowIso, type OrgRecord, type RepoRecord } from '../../core/state.js';
import type { ActionsScope } from './records.js';

/** A secret or variable of a seeded organisation or repository: its value, or its value and description. */
export type SeedActionsEntry = string | { value: string; description?: string };

/** The keys of an `orgs[]` or `repos[]` entry this domain reads, by name. */
export interface SeedActionsSettings {
  secrets?: Record<string, SeedActionsEntry>;
  variables?: Record<string, SeedActionsEntry>;
}

interface Entry {
  name: string;
  value: string;
  description: string;
}

function entries(v: unknown, path: string): Entry[] {
  if (v === undefined) return [];
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new SeedError(`${path}: expected a mapping of names to values`);
  return Object.entries(v).map(([name, e]) => {
    const p = `${path}.${name}`;
    if (!/^[A-Z_][A-Z0-9_]*$/i.test(name)) throw new SeedError(`${p}: not a valid secret or variable name`);
    if (typeof e === 'string') return { name: name.toUpperCase(), value: e, description: '' };
    const o = obj(e, p, ['value', 'description']);
    return { name: name.toUpperCase(), value: str(o.value, `${p}.value`, true)!, description: str(o.description, `${p}.description`) ?? '' };
  });
}

function load(cx: SeedContext, s: ActionsScope, entry: Obj, path: string): void {
  const { state } = cx;
  for (const e of entries(entry.secrets, `${path}.secrets`))
    state.data.actionSecrets.push({ id: state.nextId('actionSecret'), ...s, name: e.name, data: e.value, description: e.description, createdAt: nowIso() });
  for (const e of entries(entry.variables, `${path}.variables`))
    state.data.actionVariables.push({ id: state.nextId('actionVariable'), ...s, name: e.name, data: e.value.replaceAll('\r\n', '\n'), description: e.description, createdAt: nowIso() });
}

export const orgActionsSettingsSeed: NestedSeed<OrgRecord> = {
  keys: ['secrets', 'variables'],
  load: (cx, org, entry, path) => load(cx, { ownerId: org.id, repoId: 0 }, entry, path),
};

export const repoActionsSettingsSeed: NestedSeed<RepoRecord> = {
  keys: ['secrets', 'variables'],
  load: (cx, repo, entry, path) => load(cx, { ownerId: 0, repoId: repo.id }, entry, path),
};
