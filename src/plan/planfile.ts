import { isSecret, Secret } from '../secret.js';
import type { Plan } from '../model/index.js';

/** Secret values shorter than this are not searched for in plain strings (as in the output mask). */
const MIN_NET_LENGTH = 3;

/**
 * A saved plan never holds a secret. A Secret (a secret field's value) is stored as {"$env": template},
 * the ${NAME} text it was read from, and apply reads the environment again. Every other value is stored
 * as it is, whether written in the config or read from the environment: whether a value is secret is
 * decided by its field's type, and a field that is not secret may not read a variable a secret field
 * reads (the planner refuses that). As a last net, a plain string that holds a secret's value anyway (a
 * server that echoes one) makes the file unwritable rather than letting the value into it.
 */
export function serializePlan(plan: Plan): string {
  return [...serializePlanChunks(plan)].join('');
}

/**
 * The plan file in pieces, to be written as they come: the plan's own keys as indented JSON, then each change as
 * one line of JSON. A file of 93,000 changes was one 73 MB string (790 bytes a change, most of it indentation)
 * built from a copy of the whole plan; now no piece holds more than one change, and a change takes its own size.
 * A piece that would hold a secret's value throws: the writer then leaves no file (src/cli/files.ts).
 */
export function* serializePlanChunks(plan: Plan): Generator<string> {
  const values: string[] = [];
  const collect = (v: unknown): void => {
    if (isSecret(v)) {
      if (v.reveal().length >= MIN_NET_LENGTH) values.push(v.reveal());
    } else if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object') Object.values(v).forEach(collect);
  };
  collect(plan);
  const walk = (v: unknown): unknown => {
    if (isSecret(v)) return { $env: v.template };
    if (typeof v === 'string' && values.some((s) => v.includes(s))) throw new Error('a value that is not secret holds the value of a secret field: refusing to write it to the plan file');
    if (Array.isArray(v)) return v.map(walk);
    // fromEntries: a key named __proto__ (a header a config declares) stays an ordinary entry.
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  // A field's source (plan --explain) is display: the plan file holds what apply does, never where the config said it.
  const unexplained = (c: Plan['changes'][number]) => (c.fields.some((f) => f.source !== undefined) ? { ...c, fields: c.fields.map(({ source: _source, ...f }) => f) } : c);
  const { changes, ...head } = plan;
  const top = JSON.stringify(walk(head), null, 2);
  yield `${top.slice(0, top.lastIndexOf('}')).trimEnd()},\n  "changes": [`;
  for (const [i, change] of changes.entries()) yield `${i ? ',' : ''}\n    ${JSON.stringify(walk(unexplained(change)))}`;
  yield `${changes.length ? '\n  ' : ''}]\n}\n`;
}

/**
 * Resolves the {"$env": …} references of a saved plan (each a Secret: the plan's shape check allows them
 * only where a secret field's value or a request body stands, src/apply/plan-shape.ts); names the
 * variables that are not set.
 */
export function resolvePlanSecrets(plan: Plan, env: NodeJS.ProcessEnv): { plan: Plan; missing: string[]; values: string[] } {
  const missing = new Set<string>();
  const values = new Set<string>();
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const ref = v as { $env?: unknown };
      if (typeof ref.$env === 'string' && Object.keys(v).length === 1) {
        const template = ref.$env;
        const value = template.replace(/\$\$\{|\$\{([^}]+)\}/g, (_m, name: string | undefined) => {
          if (!name) return '${';
          const value = env[name];
          if (value === undefined) missing.add(name);
          else if (value !== '') values.add(value);
          return value ?? '';
        });
        return new Secret(value, template);
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return { plan: walk(plan) as Plan, missing: [...missing], values: [...values] };
}

/**
 * The values of the variables a saved plan says its config read (Plan.reads), to be masked in every output as plan
 * masked them, with the names that are not set now (their values cannot be masked). Empty values mask nothing.
 */
export function readValues(plan: Plan, env: NodeJS.ProcessEnv): { values: string[]; missing: string[] } {
  const values: string[] = [];
  const missing: string[] = [];
  for (const name of plan.reads ?? []) {
    const value = env[name];
    if (value === undefined) missing.push(name);
    else if (value !== '') values.push(value);
  }
  return { values, missing };
}
