import type { Plan } from './types.js';

/**
 * A saved plan never holds a secret: a string that carries a value read from an environment variable
 * is stored as {"$env": "template"} with ${NAME} in place of the value, and apply fills it in again.
 */
export function serializePlan(plan: Plan, secrets: Map<string, string>): string {
  const entries = [...secrets.entries()].filter(([, v]) => v.length > 0).sort((a, b) => b[1].length - a[1].length);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let t = v.replace(/\$\{/g, '$${');
      let hit = false;
      for (const [name, value] of entries) {
        if (t.includes(value)) {
          t = t.split(value).join(`\${${name}}`);
          hit = true;
        }
      }
      return hit ? { $env: t } : v;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return JSON.stringify(walk(plan), null, 2) + '\n';
}

/** Resolves the {"$env": …} references of a saved plan; names the variables that are not set. */
export function resolvePlanSecrets(plan: Plan, env: NodeJS.ProcessEnv): { plan: Plan; missing: string[]; values: string[] } {
  const missing = new Set<string>();
  const values = new Set<string>();
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === '$env' && typeof (v as { $env: unknown }).$env === 'string') {
        return (v as { $env: string }).$env.replace(/\$\$\{|\$\{([^}]+)\}/g, (m, name: string | undefined) => {
          if (!name) return '${';
          const value = env[name];
          if (value === undefined) missing.add(name);
          else values.add(value);
          return value ?? '';
        });
      }
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    }
    return v;
  };
  return { plan: walk(plan) as Plan, missing: [...missing], values: [...values] };
}
