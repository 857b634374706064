import type { ConfigPath } from '../diagnostic.js';
import type { ExportingKind, KindExport, KindMeta, KindReading } from './kind.js';
import { SCOPE_TYPES, SERVER_SCOPE, scopeId, type Scope, type ScopeCreationId } from './scope.js';

/** The questions generic stages ask a list of kinds, so that none of them needs a kind's name. */

/** "label/repo:acme/widgets/bug": a change's id names its kind, scope and key. */
export function changeId(kind: Pick<KindMeta, 'name'>, scope: Scope, key: string): string {
  return `${kind.name}/${scopeId(scope)}/${key}`;
}

/** Scopes the plan creates wait for the change of the kind whose objects are those scopes. */
export function scopeCreationIds(kinds: KindMeta[]): ScopeCreationId {
  return (type, name) => {
    const kind = kinds.find((k) => k.createsScope === type);
    return kind ? changeId(kind, SERVER_SCOPE, name) : undefined;
  };
}

/**
 * The kinds by name, in registry order (a Map keeps the order of insertion): the one way generic
 * stages find the kind a change names. Two kinds of one name are a fault of the registry.
 */
export function kindsByName<K extends KindMeta>(kinds: readonly K[]): ReadonlyMap<string, K> {
  const byName = new Map<string, K>();
  for (const k of kinds) {
    if (byName.has(k.name)) throw new Error(`two kinds are named ${k.name}`);
    byName.set(k.name, k);
  }
  return byName;
}

/** The kind a change names: a name no kind has is a bug where the change was made here (a plan file's kinds are checked when it is read, see plan-shape.ts). */
export function kindNamed<K extends KindMeta>(byName: ReadonlyMap<string, K>, name: string): K {
  const kind = byName.get(name);
  if (!kind) throw new Error(`unknown kind ${name}`);
  return kind;
}

/** The human name of a kind for output; a plan file from another version may name an unknown one. */
export function kindTitles(kinds: KindMeta[]): (name: string) => string {
  const byName = kindsByName(kinds);
  return (name) => byName.get(name)?.title ?? name;
}

export interface TargetType {
  type: string;
  placeholder: string;
  acrossSlashes?: boolean;
}

/** --target selector types: those that pick scopes first (most specific first), then server-wide objects, in registry order. */
export function targetTypes(kinds: KindMeta[]): TargetType[] {
  const rank = (k: KindMeta) => (k.createsScope ? SCOPE_TYPES.indexOf(k.createsScope) : SCOPE_TYPES.length);
  return kinds
    .flatMap((k, i) => (k.target ? [{ k, target: k.target, i }] : []))
    .sort((a, b) => rank(a.k) - rank(b.k) || a.i - b.i)
    .map(({ target }) => ({ type: target.type, placeholder: target.placeholder, ...(target.acrossSlashes ? { acrossSlashes: true } : {}) }));
}

/** "repo:OWNER/NAME, org:NAME, … or runner:NAME": the selectors of `types`, as --target's help and its error name them. */
export function selectorList(types: TargetType[]): string {
  const all = types.map((t) => `${t.type}:${t.placeholder}`);
  return all.length > 1 ? `${all.slice(0, -1).join(', ')} or ${all.at(-1)}` : (all[0] ?? '');
}

/**
 * The kinds in the order they are planned: each after the kinds its `after` names, otherwise in
 * registry order. A name no kind has, or kinds that wait for each other, is a fault of the registry.
 */
export function planningOrder<K extends KindMeta>(kinds: K[]): K[] {
  const byName = new Map(kinds.map((k) => [k.name, k]));
  const out: K[] = [];
  const state = new Map<K, 'visiting' | 'done'>();
  const visit = (k: K, path: string[]): void => {
    if (state.get(k) === 'done') return;
    if (state.get(k) === 'visiting') throw new Error(`kinds wait for each other (Kind.after): ${[...path.slice(path.indexOf(k.name)), k.name].join(' → ')}`);
    state.set(k, 'visiting');
    for (const name of k.after ?? []) {
      const first = byName.get(name);
      if (!first) throw new Error(`kind ${k.name} is planned after "${name}", which is no kind (Kind.after)`);
      visit(first, [...path, k.name]);
    }
    state.set(k, 'done');
    out.push(k);
  };
  for (const k of kinds) visit(k, []);
  return out;
}

/** The config section whose entries are the scopes of a type (the server scope is the whole config). */
const SCOPE_SECTIONS = { repo: 'repos', org: 'orgs' } as const satisfies Record<Exclude<Scope['type'], 'server'>, string>;

/** A wildcard of a config pattern: each key of a map, or each index of a list. */
export const EACH = '*';

/**
 * Where a kind's objects sit in the configuration, as a pattern with EACH for every scope and object:
 * the kind's own declaredAt, else [configKey, *] for a server-wide kind and [section, *, configKey, *]
 * for a kind of repositories or organisations.
 */
export function declaredAt(kind: KindMeta): ConfigPath {
  if (kind.declaredAt) return kind.declaredAt;
  return kind.scopeType === 'server' ? [kind.configKey, EACH] : [SCOPE_SECTIONS[kind.scopeType], EACH, kind.configKey, EACH];
}

/** Whether export writes a kind's objects: it has the export facet's toConfig. */
export function exportable<K extends KindMeta & KindReading & KindExport>(kind: K): kind is K & ExportingKind {
  return kind.toConfig !== undefined;
}

/**
 * Whether export reads a kind server-wide, only when it is named or nothing is selected (users, orgs,
 * hooks, runners), rather than with the scopes it writes (repositories: KindExport.exportedWithScopes).
 */
export function exportedServerWide(kind: KindMeta & KindExport): boolean {
  return kind.scopeType === 'server' && kind.exportedWithScopes !== true;
}
