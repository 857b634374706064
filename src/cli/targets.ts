import picomatch from 'picomatch';
import type { Scope, TargetType } from '../model/index.js';
import { UserError } from './output.js';

/** "repo:OWNER/NAME, org:NAME, … or runner:NAME (globs allowed)": the selectors the kinds offer. */
function expected(types: TargetType[]): string {
  const all = types.map((t) => `${t.type}:${t.placeholder}`);
  return `${all.length > 1 ? `${all.slice(0, -1).join(', ')} or ${all.at(-1)}` : (all[0] ?? '')} (globs allowed)`;
}

export interface Targets {
  /** Which repositories and organisations are planned. */
  scope: (scope: Scope) => boolean;
  /** Which objects of server-wide kinds are planned, by the kind's selector type (user, hook, …) and name. */
  object: (type: string, name: string) => boolean;
  /** The selectors that matched nothing the config declares, so far (ask after planning). */
  unmatched: () => string[];
}

/**
 * --target TYPE:NAME restricts plan and apply. The types are the kinds' selectors (see targetTypes):
 * those of kinds that create scopes pick scopes (and the scope object itself), the others server-wide objects.
 */
export function parseTargets(selectors: string[] | undefined, types: TargetType[]): Targets | undefined {
  if (!selectors?.length) return undefined;
  const matchers = selectors.map((s) => {
    const i = s.indexOf(':');
    const type = s.slice(0, i);
    const name = s.slice(i + 1);
    const known = types.find((t) => t.type === type);
    if (i < 0 || !known || !name) throw new UserError(`--target "${s}": expected ${expected(types)}`);
    // A URL's slashes are not path separators: there a * matches across them.
    const glob = picomatch(name, { dot: true, ...(known.acrossSlashes ? { bash: true } : {}) });
    return { selector: s, type, hit: false, match: (value: string) => value === name || glob(value) };
  });
  const object = (type: string, name: string) => {
    let any = false;
    // Every selector is tried (no short cut), so that each one learns whether it ever matched.
    for (const m of matchers) {
      if (m.type !== type || !m.match(name)) continue;
      m.hit = true;
      any = true;
    }
    return any;
  };
  return { scope: (scope) => object(scope.type, scope.name), object, unmatched: () => matchers.filter((m) => !m.hit).map((m) => m.selector) };
}
