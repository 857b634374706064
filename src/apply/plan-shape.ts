// A saved plan is input from outside, like a config: before apply reads anything of it, its shape is
// checked strictly against what this forgeform knows (kinds, actions, scopes, field names). Anything
// unknown is refused by name: a plan from another version, or an edited one, is planned again.
import { copyIn, FLAVOURS, isRenamedName, kindsByName, LOCK_NAME_PATTERN, parseVersion, SCOPE_NAME, type Diagnostic, type Flavour, type Kind } from '../model/index.js';
import { changeId, parseScopeId } from '../plan/planner.js';
import { ENGINE_POLICY_KEYS } from '../plan/safety.js';
import type { Action, Change, Plan, PlanPolicy } from '../model/index.js';
import { reservedVariableReason, templateVariables } from '../secret.js';

const PLAN_KEYS = ['format_version', 'forgeform_version', 'created_at', 'server', 'config_digest', 'summary', 'policy', 'unsafe', 'warnings', 'drift', 'withheld', 'kept', 'reads', 'changes'];
const CHANGE_KEYS = ['id', 'kind', 'scope', 'key', 'action', 'from', 'fields', 'precondition', 'depends_on', 'ops', 'notes'];
const FIELD_KEYS = ['path', 'before', 'after', 'sensitive', 'abbreviated', 'writeOnly', 'context', 'elements'];
const OP_KEYS = ['method', 'path', 'body', 'query', 'reason', 'onStatus', 'expect', 'idempotent', 'restsOn'];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const ACTIONS: Action[] = ['create', 'update', 'delete', 'rename', 'replace'];

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

const SERVER_KEYS = ['url', 'flavour', 'version', 'assumed'];

function serverProblems(server: unknown): string[] {
  if (!isObject(server) || typeof server.url !== 'string') return ['server must be {"url", "flavour", "version"}: the server and release the plan was made for'];
  const problems = Object.keys(server).filter((k) => !SERVER_KEYS.includes(k)).map((k) => `unknown key "${k}" in server`);
  if (server.flavour !== undefined && !FLAVOURS.includes(server.flavour as Flavour)) problems.push(`server.flavour must be one of ${FLAVOURS.join(', ')}`);
  if (server.version !== undefined && (typeof server.version !== 'string' || !parseVersion(server.version))) problems.push('server.version must be a release number');
  if (server.assumed !== undefined && server.assumed !== true) problems.push('server.assumed must be true or absent');
  return problems;
}

/**
 * Problems with a plan file's shape, each a diagnostic naming where it is (the change, or the plan's
 * own keys); empty when the plan can be verified further.
 */
export function planShapeProblems(raw: unknown, kinds: Kind[]): Diagnostic[] {
  if (!isObject(raw)) return [{ message: 'the file does not hold a JSON object' }];
  if (raw.format_version !== 1) return [{ message: `format_version is ${JSON.stringify(raw.format_version)}, this forgeform reads format_version 1` }];
  const problems = topLevelProblems(raw, kinds).map((message): Diagnostic => ({ message }));
  if (!Array.isArray(raw.changes)) return [...problems, { message: 'changes must be a list' }];
  const ids = new Set<string>();
  const byName = kindsByName(kinds);
  raw.changes.forEach((c: unknown, i) => {
    if (!isObject(c)) return problems.push({ message: `changes[${i}] is not an object` });
    const resource = `change ${typeof c.id === 'string' ? c.id : `changes[${i}]`}`;
    problems.push(...changeProblems(c, byName, ids).map((message) => ({ resource, message })));
  });
  for (const c of raw.changes as Partial<Change>[])
    for (const d of isObject(c) && isStringList(c.depends_on) ? c.depends_on : []) if (!ids.has(d)) problems.push({ resource: `change ${c.id}`, message: `depends on ${d}, which is not in the plan` });
  problems.push(...referenceProblems(raw));
  return problems;
}

/**
 * Every {"$env": …} reference of the plan. A reference is a secret field's value read from the
 * environment again at apply: it may stand only where such a value goes (a field whose type is secret,
 * which fieldProblems checks against the kind, and a request's body, which apply checks against that
 * field), never elsewhere (a description, a change's key, a URL), it has no other key (whether it is
 * secret is decided by the field's type, not by the file: no "secret": false), and it never reads
 * forgeform's own credentials nor the CI runtime's variables.
 */
function referenceProblems(raw: Record<string, unknown>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const walk = (v: unknown, path: (string | number)[], allowed: boolean, resource: string | undefined): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, [...path, i], allowed, resource));
    if (!isObject(v)) return;
    if (!('$env' in v)) {
      for (const [k, x] of Object.entries(v)) walk(x, [...path, k], allowed, resource);
      return;
    }
    const at = path.join('.');
    const problem = (message: string): void => {
      out.push({ ...(resource ? { resource } : {}), message: `${at}: ${message}` });
    };
    const extra = Object.keys(v).filter((k) => k !== '$env');
    if (extra.length) problem(`a reference ({"$env": …}) has no other key (${extra.map((k) => `"${k}"`).join(', ')}): whether a value is secret is decided by its field's type, not by the plan file`);
    if (typeof v.$env !== 'string') return problem('"$env" must be a string: the ${NAME} text the value was read from');
    if (!allowed) problem('a reference ({"$env": …}) may stand only for the value of a secret field or in a request body: other values are saved as they are');
    for (const name of templateVariables(v.$env)) {
      const reason = reservedVariableReason(name);
      if (reason) problem(reason);
    }
  };
  if (!Array.isArray(raw.changes)) return out;
  for (const [k, x] of Object.entries(raw)) if (k !== 'changes') walk(x, [k], false, undefined);
  raw.changes.forEach((c: unknown, i) => {
    if (!isObject(c)) return;
    const resource = `change ${typeof c.id === 'string' ? c.id : `changes[${i}]`}`;
    for (const [k, x] of Object.entries(c)) {
      if (k === 'ops' && Array.isArray(x))
        x.forEach((op: unknown, j) => {
          if (isObject(op)) for (const [ok, ox] of Object.entries(op)) walk(ox, [k, j, ok], ok === 'body', resource);
        });
      else if (k === 'fields' && Array.isArray(x))
        x.forEach((f: unknown, j) => {
          if (isObject(f)) for (const [fk, fx] of Object.entries(f)) walk(fx, [k, j, fk], f.sensitive === true && (fk === 'before' || fk === 'after'), resource);
        });
      else walk(x, [k], false, resource);
    }
  });
  return out;
}

function topLevelProblems(raw: Record<string, unknown>, kinds: Kind[]): string[] {
  const problems: string[] = [];
  for (const k of Object.keys(raw)) if (!PLAN_KEYS.includes(k)) problems.push(`unknown key "${k}" at the top level`);
  problems.push(...serverProblems(raw.server));
  if (!isStringList(raw.unsafe ?? [])) problems.push('unsafe must be a list of strings');
  if (!isStringList(raw.warnings ?? [])) problems.push('warnings must be a list of strings');
  if (!isStringList(raw.drift ?? [])) problems.push('drift must be a list of strings');
  if (!isStringList(raw.withheld ?? [])) problems.push('withheld must be a list of strings');
  // Shown only (what the plan kept): never acted on.
  const kept = raw.kept ?? [];
  if (!Array.isArray(kept) || !kept.every((k) => isObject(k) && typeof k.scope === 'string' && typeof k.kind === 'string' && typeof k.prune_key === 'string' && isStringList(k.keys)))
    problems.push('kept must be a list of {scope, kind, prune_key, keys}');
  // Read only to mask their values (never to send anything): names of variables, as a config writes them.
  const reads = raw.reads ?? [];
  if (!isStringList(reads) || !reads.every((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n))) problems.push('reads must be a list of environment variable names');
  return [...problems, ...policyProblems(raw.policy, kinds)];
}

/** What is wrong with one change (its id is added to `ids`). */
function changeProblems(c: Record<string, unknown>, kinds: ReadonlyMap<string, Kind>, ids: Set<string>): string[] {
  const out: string[] = [];
  for (const k of Object.keys(c)) if (!CHANGE_KEYS.includes(k)) out.push(`unknown key "${k}"`);
  const kind = typeof c.kind === 'string' ? kinds.get(c.kind) : undefined;
  if (!kind) return [...out, `unknown kind ${JSON.stringify(c.kind)} (this forgeform knows ${[...kinds.keys()].join(', ')})`];
  if (typeof c.key !== 'string' || c.key === '') out.push('key must be a non-empty string');
  if (!ACTIONS.includes(c.action as Action) || !kind.actions.includes(c.action as Action))
    out.push(`action ${JSON.stringify(c.action)} is not one that ${kind.title} changes can have (${kind.actions.join(', ')})`);
  if (typeof c.scope !== 'string' || !validScope(c.scope, kind)) out.push(`scope ${JSON.stringify(c.scope)} is not a ${kind.scopeType} scope`);
  else if (typeof c.key === 'string') {
    const expected = changeId(kind, parseScopeId(c.scope), c.key);
    // A delete of one copy among several of a name addresses it by its server id (see copyChangeId).
    const copy = c.action === 'delete' && typeof c.id === 'string' ? copyIn(c.id, expected) : undefined;
    if (c.id !== expected && !(copy !== undefined && /^\d+$/.test(copy))) out.push(`id must be ${expected}`);
  }
  if (typeof c.id === 'string') {
    if (ids.has(c.id)) out.push('appears twice');
    ids.add(c.id);
  }
  if ((c.action === 'rename') !== (typeof c.from === 'string')) out.push(c.action === 'rename' ? 'a rename needs from (the old name)' : 'only a rename has from');
  out.push(...fieldProblems(c.fields, kind, c.action as Action));
  out.push(...recordProblems(c));
  return out;
}

/** The precondition, dependencies, notes and requests of a change. */
function recordProblems(c: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (!isObject(c.precondition) || !(c.precondition.digest === null || typeof c.precondition.digest === 'string') || Object.keys(c.precondition).some((k) => !['digest', 'affects'].includes(k)))
    out.push('precondition must be {digest, affects?}');
  else if (c.precondition.affects !== undefined && !Number.isInteger(c.precondition.affects)) out.push('precondition.affects must be a count');
  if (!isStringList(c.depends_on)) out.push('depends_on must be a list of change ids');
  if (c.notes !== undefined && !isStringList(c.notes)) out.push('notes must be a list of strings');
  if (!Array.isArray(c.ops)) out.push('ops must be a list');
  else
    c.ops.forEach((op: unknown, j) => {
      if (!isObject(op) || !METHODS.includes(op.method as string) || typeof op.path !== 'string' || Object.keys(op).some((k) => !OP_KEYS.includes(k)))
        out.push(`ops[${j}] is not a request ({method, path, body?, query?})`);
      else if (op.expect !== undefined && (op.method !== 'GET' || !isObject(op.expect) || !isStringList(op.expect.fields) || typeof op.expect.message !== 'string'))
        out.push(`ops[${j}].expect must be {fields, message} on a GET`);
      else if (op.restsOn !== undefined && typeof op.restsOn !== 'string') out.push(`ops[${j}].restsOn must be an API path`);
    });
  return out;
}

function validScope(id: string, kind: Kind): boolean {
  const i = id.indexOf(':');
  if (i < 0 || id.slice(0, i) !== kind.scopeType) return false;
  const scope = parseScopeId(id);
  return scope.type === kind.scopeType && SCOPE_NAME[scope.type].test(scope.name);
}

function fieldProblems(fields: unknown, kind: Kind, action: Action): string[] {
  if (!Array.isArray(fields)) return ['fields must be a list'];
  const out: string[] = [];
  const seen = new Set<string>();
  fields.forEach((f: unknown, i) => {
    if (!isObject(f) || typeof f.path !== 'string') return out.push(`fields[${i}] is not {path, before?, after?}`);
    for (const k of Object.keys(f)) if (!FIELD_KEYS.includes(k)) out.push(`field "${f.path}": unknown key "${k}"`);
    if (seen.has(f.path)) out.push(`field "${f.path}" appears twice`);
    seen.add(f.path);
    if (f.context === true) {
      if (!(kind.context ?? []).includes(f.path)) out.push(`field "${f.path}" is not a value a ${kind.title} change can carry${kind.context?.length ? ` (${kind.context.join(', ')})` : ''}`);
      return;
    }
    // A rename's name is the old and new name its from and key say, not a field of the kind (nothing is sent from it).
    if (isRenamedName(action, f.path)) return;
    const spec = kind.fields.find((s) => s.name === f.path);
    if (!spec) return out.push(`field "${f.path}" is not a field of a ${kind.title}`);
    if (Boolean(f.sensitive) !== Boolean(spec.sensitive)) out.push(`field "${f.path}" must ${spec.sensitive ? '' : 'not '}be marked sensitive`);
    if (spec.sensitive) out.push(...secretValueProblems(f));
    if (f.abbreviated !== undefined && f.abbreviated !== true) out.push(`field "${f.path}": abbreviated must be true or absent`);
    // A write-only field may come unmarked: compared, where the server returned it.
    if (f.writeOnly && !spec.writeOnly) out.push(`field "${f.path}" must not be marked write-only`);
  });
  if (action === 'delete' && fields.some((f) => isObject(f) && f.context !== true)) out.push('a delete carries no field values');
  return out;
}

/**
 * A secret field's values in a plan file: each the reference it is read from at apply ({"$env": "${NAME}"}), never a
 * value. A literal — a plain string, or a reference that reads no variable — is what a hand-edited file plants (a
 * user password that then logs in): refused without repeating it. Which variable a reference reads is shown by every
 * plan output (`(sensitive, from ${NAME})`), so a file edited to read another prints differently from the reviewed one.
 */
function secretValueProblems(f: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const side of ['before', 'after'] as const) {
    const v = f[side];
    if (v === undefined || v === null) continue;
    const template = isObject(v) && typeof v.$env === 'string' ? v.$env : undefined;
    if (template === undefined) out.push(`field "${f.path}" is a secret, and its ${side} value is written in the file: a plan file holds only the reference a secret is read from ({"$env": "\${NAME}"}), never a value (the file was edited): plan again`);
    else if (side === 'after' && templateVariables(template).length === 0)
      out.push(`field "${f.path}" is a secret, and its reference reads no environment variable (a value written in the file): a secret is read from the environment at apply ({"$env": "\${NAME}"}) (the file was edited): plan again`);
  }
  return out;
}

function policyProblems(policy: unknown, kinds: Kind[]): string[] {
  if (policy === undefined) return ['the plan records no policy (made by an older forgeform): plan again'];
  if (!isObject(policy)) return ['policy must be an object'];
  const p = policy as Partial<PlanPolicy> & Record<string, unknown>;
  const out: string[] = [];
  const own = kinds.flatMap((k) => Object.entries(k.policy ?? {}));
  const keys = [...ENGINE_POLICY_KEYS, ...own.map(([key]) => key)];
  for (const k of Object.keys(p)) if (!keys.includes(k)) out.push(`policy: unknown key "${k}"`);
  const pruneKeys = new Set(kinds.map((k) => k.pruneKey).filter(Boolean));
  if (!isStringList(p.prune)) out.push('policy.prune must be a list of kinds');
  else for (const k of p.prune) if (!pruneKeys.has(k)) out.push(`policy.prune: unknown kind "${k}"`);
  if (!Number.isInteger(p.max_deletes) || (p.max_deletes as number) < 0) out.push('policy.max_deletes must be a count');
  if (typeof p.max_delete_fraction !== 'number' || p.max_delete_fraction < 0 || p.max_delete_fraction > 1) out.push('policy.max_delete_fraction must be between 0 and 1');
  if (p.apply_lock !== undefined && (typeof p.apply_lock !== 'string' || !new RegExp(LOCK_NAME_PATTERN).test(p.apply_lock))) out.push('policy.apply_lock must be a name an organisation can have');
  // The kinds' own entries (KindMeta.policy), each checked as its kind says.
  for (const [key, entry] of own) if (!entry.is(p[key])) out.push(`policy.${key} must be ${entry.expected}`);
  return out;
}

/** A plan's summary counts what its changes do (the file's own summary is not trusted for display). */
export function summaryOf(changes: Change[]): Plan['summary'] {
  const summary = { create: 0, update: 0, delete: 0, rename: 0, replace: 0 };
  for (const c of changes) summary[c.action]++;
  return summary;
}
