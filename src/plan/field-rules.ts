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
import { bindingFailure, bindingModeOf, ruleMeaning, type BindingFailure, type BindingMode } from '../releases/rules.js';
import { inFileOrder, placesOf, unavailableIn } from './availability.js';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A value as the binder sees it: strings, numbers, booleans and lists of them; anything else is not judged, nor a string still holding a `${NAME}` (validate offline leaves unset variables in place). */
const judged = (v: unknown): boolean => (typeof v === 'string' && !v.includes('${')) || ['number', 'boolean'].includes(typeof v) || (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number'));

/** The zero value of a declared value's type: what the binder compares it with (`OmitEmpty`, `Required`). */
const zeroLike = (v: unknown): unknown => (typeof v === 'string' ? '' : typeof v === 'number' ? 0 : typeof v === 'boolean' ? false : undefined);

/**
 * The first rule of a field that a declared value breaks, as the release's binder judges it (one
 * judgement with the sandbox's binder: src/releases/rules.ts bindingFailure, by the binding module of
 * the table), or undefined. `Required` only fails on a declared zero value (a missing one is the schema's).
 */
export function brokenRule(rule: FieldRule, value: unknown, mode: BindingMode): BindingFailure | undefined {
  return bindingFailure({ rules: rule.rules, pointer: rule.type.startsWith('*'), zero: zeroLike(value) }, value, mode);
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
  const mode = bindingModeOf(table.binding);
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
          const broken = rule && judged(value) ? brokenRule(rule, value, mode) : undefined;
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
function problem(rule: FieldRule, broken: BindingFailure, path: ConfigPath, server: ServerInfo, loaded: Pick<LoadedConfig, 'locate'>, isName: boolean): Diagnostic {
  const what = isName ? `the name ${JSON.stringify(String(path[path.length - 1]))} (sent as ${rule.json})` : String(path[path.length - 1]);
  const at = `(${rule.at} ${rule.struct}.${rule.go}: binding:"${rule.tag}")`;
  if (broken.address) {
    // The binder judged the pointer's address (rules.ts BINDING_MODES `address`): every value is refused.
    return {
      message: `${what}: cannot be set through the API of ${describeServer(server)}: its binder checks ${broken.rule} on the field's address, not its value, and refuses every value ${at}`,
      hint: `the server would refuse it: 422 [${rule.go}]: ${broken.word} (go-gitea/gitea#30518, fixed in Gitea 1.22); leave the field out and set it in the web interface`,
      path,
      ...(loaded.locate(path, true) ?? {}),
    };
  }
  const must = broken.rule === 'Required' ? 'must not be empty' : `must be ${ruleMeaning(broken.rule)}`;
  return {
    message: `${what}: ${must} on ${describeServer(server)} ${at}`,
    hint: `the server would refuse it: 422 [${rule.go}]`,
    path,
    ...(loaded.locate(path, true) ?? {}),
  };
}

/** Everything in the configuration the server's release cannot take: what it lacks (availability.ts) and what its binding rules refuse, in file order. */
export function releaseProblems(kinds: ReadingKind[], loaded: Pick<LoadedConfig, 'config' | 'locate'>, server: ServerInfo): Diagnostic[] {
  return [...unavailableIn(kinds, loaded, server), ...fieldRuleProblems(kinds, loaded, server)].sort(inFileOrder);
}
