import { isSecret, Secret } from '../secret.js';
import type { Plan } from '../model/index.js';

/** Env values shorter than this are not searched for in plain strings (as in the output mask). */
const MIN_NET_LENGTH = 3;

/**
 * A saved plan never holds a secret. A Secret (a sensitive field) is stored as {"$env": template}, the
 * ${NAME} text it was read from, and apply reads the environment again. As a second net, a plain
 * string that contains a value read from an environment variable (a non-sensitive field interpolated
 * from it, a hook URL in a change's key) is stored as {"$env": template, "secret": false}, with ${NAME}
 * in place of the value and "${" escaped as "$${": apply gives it back as the plain text it was.
 */
export function serializePlan(plan: Plan, secrets: Map<string, string>): string {
  return [...serializePlanChunks(plan, secrets)].join('');
}

/**
 * The plan file in pieces, to be written as they come: the plan's own keys as indented JSON, then each change as
 * one line of JSON. A file of 93,000 changes was one 73 MB string (790 bytes a change, most of it indentation)
 * built from a copy of the whole plan; now no piece holds more than one change, and a change takes its own size.
 */
export function* serializePlanChunks(plan: Plan, secrets: Map<string, string>): Generator<string> {
  const walk = netWalker(secrets);
  const { changes, ...head } = plan;
  const top = JSON.stringify(walk(head), null, 2);
  yield `${top.slice(0, top.lastIndexOf('}')).trimEnd()},\n  "changes": [`;
  for (const [i, change] of changes.entries()) yield `${i ? ',' : ''}\n    ${JSON.stringify(walk(change))}`;
  yield `${changes.length ? '\n  ' : ''}]\n}\n`;
}

/** The walk that stores Secrets as references and puts ${NAME} in place of values read from the environment. */
function netWalker(secrets: Map<string, string>): (v: unknown) => unknown {
  const entries = [...secrets.entries()].filter(([, v]) => v.length >= MIN_NET_LENGTH).sort((a, b) => b[1].length - a[1].length);
  const walk = (v: unknown): unknown => {
    if (isSecret(v)) return { $env: v.template };
    if (typeof v === 'string') {
      // Without a value to look for, no string changes: a large plan's walk is mostly strings.
      if (entries.length === 0) return v;
      let t = v.replace(/\$\{/g, () => '$${');
      let hit = false;
      for (const [name, value] of entries) {
        if (t.includes(value)) {
          t = t.split(value).join(`\${${name}}`);
          hit = true;
        }
      }
      return hit ? { $env: t, secret: false } : v;
    }
    if (Array.isArray(v)) return v.map(walk);
    // fromEntries: a key named __proto__ (a header a config declares) stays an ordinary entry.
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk;
}

/**
 * Where a reference may stand for a Secret: what is sent (op bodies) and what is shown as a field's
 * value. Elsewhere (the server URL, a change's key) a value is plain text, hidden by the output's mask.
 */
function holdsSecrets(path: (string | number)[]): boolean {
  const [changes, , part, , leaf] = path;
  if (changes !== 'changes') return false;
  return (part === 'ops' && leaf === 'body') || (part === 'fields' && (leaf === 'before' || leaf === 'after'));
}

/** Resolves the {"$env": …} references of a saved plan; names the variables that are not set. */
export function resolvePlanSecrets(plan: Plan, env: NodeJS.ProcessEnv): { plan: Plan; missing: string[]; values: string[] } {
  const missing = new Set<string>();
  const values = new Set<string>();
  const walk = (v: unknown, path: (string | number)[]): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, [...path, i]));
    if (v && typeof v === 'object') {
      const ref = v as { $env?: unknown; secret?: unknown };
      const keys = Object.keys(v).sort().join(',');
      if (typeof ref.$env === 'string' && (keys === '$env' || (keys === '$env,secret' && ref.secret === false))) {
        const template = ref.$env;
        const value = template.replace(/\$\$\{|\$\{([^}]+)\}/g, (_m, name: string | undefined) => {
          if (!name) return '${';
          const value = env[name];
          if (value === undefined) missing.add(name);
          else if (value !== '') values.add(value);
          return value ?? '';
        });
        return ref.secret !== false && holdsSecrets(path) ? new Secret(value, template) : value;
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, [...path, k])]));
    }
    return v;
  };
  return { plan: walk(plan, []) as Plan, missing: [...missing], values: [...values] };
}
