/**
 * The binding rules of the server's release, checked at plan time: every value a declared object
 * gives a field its kind sends (KindMeta.sends: the option structs of its writes) is judged by the
 * rules the release's tag declares for that struct's field (src/releases/field-rules, the table the
 * sandbox binds with too). A value the release would refuse with a 422 (`[FullName]: MaxSize`,
 * `[Website]: Url`, `[BranchFilter]: <glob error>`) is a plan error at its file:line:col naming the
 * rule, the release and the source line. Like the availability check it sends nothing.
 */
import type { LoadedConfig } from '../config/types.js';
import { declaredAt, describeServer, isGlobKey, type ConfigPath, type Diagnostic, type KindMeta, type ReadingKind, type SentStruct, type ServerInfo } from '../model/index.js';
import { fieldRuleTableOf, structRules, type FieldRule } from '../releases/field-rules.js';
import { ruleFailure, ruleMeaning } from '../releases/rules.js';
import { inFileOrder, placesOf, unavailableIn } from './availability.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as the binder sees it: strings, numbers, booleans and lists of them; anything else is not judged, nor a string still holding a `${NAME}` (validate offline leaves unset variables in place). */
const judged = (v: unknown): boolean => (typeof v === 'string' && !v.includes('${')) || ['number', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'));

const isZero = (v: unknown): boolean => v === '' || v === 0 || v === false;

/** The first rule of a field that a value breaks, or undefined. `Required` only fails on a declared zero value (a missing one is the schema's). */
export function brokenRule(rule: FieldRule, value: unknown): string | undefined {
  for (const r of rule.rules) {
    if (r === 'OmitEmpty') {
      if (isZero(value)) return undefined;
      continue;
    }
    if (r === 'Required') {
      if (!Array.isArray(value) && isZero(value)) return r;
      continue;
    }
    if (ruleFailure(r, value) !== undefined) return r;
  }
  return undefined;
}

interface Sent {
  path: ConfigPath;
  json: string;
  value: unknown;
}

/** What one declared object sends in one struct: its name under `key`, its fields under their JSON keys. */
function sentValues(kind: KindMeta, sent: SentStruct, path: ConfigPath, declared: Record<string, unknown>): Sent[] {
  if (sent.when !== undefined && !Object.hasOwn(declared, sent.when)) return [];
  const out: Sent[] = Object.entries(declared).filter(([field]) => !sent.own?.includes(field)).map(([field, value]) => ({ path: [...path, field], json: sent.as?.[field] ?? field, value }));
  const name = String(path[path.length - 1] ?? '');
  // A glob key (`acme/*`) of a kind whose objects are scopes names existing ones: no name is sent.
  if (sent.key && !(kind.createsScope && isGlobKey(name))) out.push({ path, json: sent.key, value: sent.keyIsPath ? name.slice(name.lastIndexOf('/') + 1) : name });
  return out;
}

/** Every value of the config that the server's release refuses by its binding rules, kind by kind. */
export function fieldRuleProblems(kinds: readonly KindMeta[], loaded: Pick<LoadedConfig, 'config' | 'locate'>, server: ServerInfo): Diagnostic[] {
  const table = fieldRuleTableOf(server.flavour, server.version);
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const kind of kinds) {
    for (const sent of kind.sends ?? []) {
      const rules = structRules(table, sent.struct);
      if (!rules) continue;
      for (const object of placesOf(loaded.config, declaredAt(kind))) {
        if (!isRecord(object.value)) continue;
        for (const { path, json, value } of sentValues(kind, sent, object.path, object.value)) {
          const rule = rules.get(json);
          const broken = rule && judged(value) ? brokenRule(rule, value) : undefined;
          const id = JSON.stringify(path);
          if (!rule || !broken || seen.has(id)) continue;
          seen.add(id);
          out.push(problem(rule, broken, path, server, loaded, path === object.path));
        }
      }
    }
  }
  return out;
}

/** `full_name: must be at most 100 characters on Gitea 1.25.4 (modules/structs/org.go:53 CreateOrgOption.FullName: binding:"MaxSize(100)")`. */
function problem(rule: FieldRule, broken: string, path: ConfigPath, server: ServerInfo, loaded: Pick<LoadedConfig, 'locate'>, isName: boolean): Diagnostic {
  const what = isName ? `the name ${JSON.stringify(String(path[path.length - 1]))} (sent as ${rule.json})` : String(path[path.length - 1]);
  const must = broken === 'Required' ? 'must not be empty' : `must be ${ruleMeaning(broken)}`;
  return {
    message: `${what}: ${must} on ${describeServer(server)} (${rule.at} ${rule.struct}.${rule.go}: binding:"${rule.tag}")`,
    hint: `the server would refuse it: 422 [${rule.go}]`,
    path,
    ...(loaded.locate(path, true) ?? {}),
  };
}

/** Everything in the configuration the server's release cannot take: what it lacks (availability.ts) and what its binding rules refuse, in file order. */
export function releaseProblems(kinds: ReadingKind[], loaded: Pick<LoadedConfig, 'config' | 'locate'>, server: ServerInfo): Diagnostic[] {
  return [...unavailableIn(kinds, loaded, server), ...fieldRuleProblems(kinds, loaded, server)].sort(inFileOrder);
}
