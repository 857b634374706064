import picomatch from 'picomatch';
import type { Scope } from '../model/index.js';
import { UserError } from './output.js';

/** Selector types: repo and org pick scopes (and the repository or organisation itself); the others pick server-wide objects. */
const TYPES = ['repo', 'org', 'user', 'hook', 'runner'] as const;
const EXPECTED = 'repo:OWNER/NAME, org:NAME, user:NAME, hook:URL or runner:NAME (globs allowed)';

export interface Targets {
  /** Which repositories and organisations are planned. */
  scope: (scope: Scope) => boolean;
  /** Which objects of server-wide kinds are planned, by the kind's selector type (user, hook, …) and name. */
  object: (type: string, name: string) => boolean;
  /** The selectors that matched nothing the config declares, so far (ask after planning). */
  unmatched: () => string[];
}

/** --target repo:acme/widgets, org:acme, user:alice, hook:https://ci.example.com/hook, runner:ci-1: restricts plan and apply. */
export function parseTargets(selectors: string[] | undefined): Targets | undefined {
  if (!selectors?.length) return undefined;
  const matchers = selectors.map((s) => {
    const i = s.indexOf(':');
    const type = s.slice(0, i);
    const name = s.slice(i + 1);
    if (i < 0 || !(TYPES as readonly string[]).includes(type) || !name) throw new UserError(`--target "${s}": expected ${EXPECTED}`);
    // A URL's slashes are not path separators: there a * matches across them.
    const glob = picomatch(name, { dot: true, ...(type === 'hook' ? { bash: true } : {}) });
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
