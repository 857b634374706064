/**
 * What the configuration asks of the server's release, found in the configuration alone: every kind,
 * field and feature it uses that the release lacks (a field a server does not know is ignored, so it
 * would never converge; a kind without routes fails on its first request). Kinds hold the facts
 * (Kind.availability, FieldSpec.availability, KindFeature) and say where their objects sit
 * (declaredAt); this module only walks the config. It sends nothing: `plan` runs it right after the
 * preflight, `validate --server-version` offline.
 */
import type { LoadedConfig } from '../config/types.js';
import {
  declaredAt,
  describeAvailability,
  describeServer,
  EACH,
  serverHas,
  type Availability,
  type ConfigPath,
  type Diagnostic,
  type KindMeta,
  type ReadingKind,
  type ServerInfo,
} from '../model/index.js';

/** Something the config uses that only some releases have, at the place it is written. */
export interface Requirement {
  path: ConfigPath;
  /** How the error names it: the field, or the kind's section. */
  what: string;
  availability: Availability;
  /** A whole kind (its routes), not one value of an object. */
  kind?: boolean;
  /** What the release would do with it instead (default: ignore it). */
  hint?: string;
}

interface Place {
  path: ConfigPath;
  value: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The values at a pattern's places in a config tree: EACH is every key of a map or index of a list. */
export function placesOf(tree: unknown, pattern: ConfigPath): Place[] {
  let places: Place[] = [{ path: [], value: tree }];
  for (const step of pattern) {
    places = places.flatMap(({ path, value }): Place[] => {
      if (step !== EACH) return isRecord(value) && Object.hasOwn(value, step) ? [{ path: [...path, step], value: value[step] }] : [];
      if (Array.isArray(value)) return value.map((v, i) => ({ path: [...path, i], value: v }));
      return isRecord(value) ? Object.entries(value).map(([k, v]) => ({ path: [...path, k], value: v })) : [];
    });
  }
  return places;
}

/** The release-dependent things one declared object uses: its fields that some releases lack, and the features it asks for. */
function objectRequirements(kind: ReadingKind, path: ConfigPath, declared: Record<string, unknown>): Requirement[] {
  const out: Requirement[] = [];
  for (const field of kind.fields) {
    if (field.availability && Object.hasOwn(declared, field.name))
      out.push({ path: [...path, field.name], what: field.name, availability: field.availability, ...(field.unavailableHint ? { hint: field.unavailableHint } : {}) });
  }
  for (const feature of Object.values(kind.features ?? {})) {
    const at = feature.usedBy?.(declared);
    if (at !== undefined) out.push({ path: [...path, at], what: feature.what ?? at, availability: feature.availability });
  }
  return out;
}

/** Everything in the configuration that only some releases have, kind by kind, wherever it is written (globs included). */
export function requirementsOf(kinds: ReadingKind[], config: unknown): Requirement[] {
  const out: Requirement[] = [];
  for (const kind of kinds) {
    const pattern = declaredAt(kind);
    if (kind.availability) {
      // The section itself: an empty one still has the kind read (and pruned).
      for (const section of placesOf(config, pattern.slice(0, -1)))
        out.push({ path: section.path, what: String(section.path[section.path.length - 1]), availability: kind.availability, kind: true });
    }
    for (const object of placesOf(config, pattern)) {
      if (isRecord(object.value)) out.push(...objectRequirements(kind, object.path, object.value));
    }
  }
  return out;
}

/** `priority needs Gitea ≥ 1.23 (server: Forgejo 11.0.2)`, `runners need Gitea ≥ 1.24 or Forgejo ≥ 15 (server: Gitea 1.23.8)`. */
export function unavailableMessage(r: Requirement, server: ServerInfo): string {
  return `${r.what} ${r.kind ? 'need' : 'needs'} ${describeAvailability(r.availability)} (server: ${describeServer(server)})`;
}

/** Why the release lacks a kind as a whole, in the words of unavailableMessage; undefined when it has it (or no server is known). */
export function kindUnavailable(kind: KindMeta, server: ServerInfo | undefined): string | undefined {
  if (!server || !kind.availability || serverHas(server, kind.availability)) return undefined;
  return unavailableMessage({ path: [], what: kind.configKey, availability: kind.availability, kind: true }, server);
}

/** The place of a path, or of its nearest enclosing value that has one. */
function placeOf(loaded: Pick<LoadedConfig, 'locate'>, path: ConfigPath): Partial<Diagnostic> {
  for (let n = path.length; n > 0; n--) {
    const at = loaded.locate(path.slice(0, n), true);
    if (at) return at;
  }
  return {};
}

/**
 * Every value of the configuration that the server's release lacks, as a diagnostic at its
 * file:line:col naming both sides. Empty when the release has all of them.
 */
export function unavailableIn(kinds: ReadingKind[], loaded: Pick<LoadedConfig, 'config' | 'locate'>, server: ServerInfo): Diagnostic[] {
  return requirementsOf(kinds, loaded.config)
    .filter((r) => !serverHas(server, r.availability))
    .map((r) => ({
      message: unavailableMessage(r, server),
      hint: r.hint ?? (r.kind ? 'the server has no routes for them' : 'the server would ignore it'),
      path: r.path,
      ...placeOf(loaded, r.path),
    }))
    .sort(inFileOrder);
}

/** As they are written: by file, line and column (those in no file last). */
export function inFileOrder(a: Diagnostic, b: Diagnostic): number {
  if (a.file === undefined || b.file === undefined) return a.file === b.file ? 0 : a.file === undefined ? 1 : -1;
  return a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.col ?? 0) - (b.col ?? 0);
}

/** A server object's config fragment without the fields its release lacks (export writes only what plan accepts there). */
export function availableFieldsOf(kind: ReadingKind, fragment: Record<string, unknown>, server: ServerInfo | undefined): Record<string, unknown> {
  const lacking = new Set(kind.fields.filter((f) => f.availability && !serverHas(server, f.availability)).map((f) => f.name));
  return lacking.size ? Object.fromEntries(Object.entries(fragment).filter(([k]) => !lacking.has(k))) : fragment;
}
