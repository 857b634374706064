import leven from 'leven';
import picomatch from 'picomatch';
import { selectorList, type Scope, type TargetType } from '../model/index.js';
import { UserError } from './output.js';

/** "repo:OWNER/NAME, org:NAME, … or runner:NAME (globs allowed)": the selectors the kinds offer. */
const expected = (types: TargetType[]): string => `${selectorList(types)} (globs allowed)`;

export interface Targets {
  /** Which repositories and organisations are planned. */
  scope: (scope: Scope) => boolean;
  /** Which objects of server-wide kinds are planned, by the kind's selector type (user, hook, …) and name. */
  object: (type: string, name: string) => boolean;
  /** The selectors that matched nothing the config declares, so far (ask after planning), each with the nearest names it was asked about. */
  unmatched: () => Unmatched[];
}

export interface Unmatched {
  selector: string;
  /** The nearest selectors of the same type that name something the config declares (at most 3, nearest first). */
  nearest: string[];
  /** Whether they are a typo away (else they are only the nearest there are). */
  close: boolean;
}

/** The names of `seen` nearest to `name`, nearest first (at most 3): those a typo away (an edit distance of at most a third of its length, and 2) when there are, else the nearest ones. */
function nearestNames(name: string, seen: Iterable<string>): { names: string[]; close: boolean } {
  const bound = Math.max(2, Math.ceil(name.length / 3));
  const ranked = [...seen].map((s) => ({ s, d: leven(name.toLowerCase(), s.toLowerCase()) })).sort((a, b) => a.d - b.d || a.s.localeCompare(b.s));
  const close = ranked.filter((x) => x.d <= bound);
  return { names: (close.length ? close : ranked).slice(0, 3).map((x) => x.s), close: close.length > 0 };
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
    // A URL's slashes are not path separators: there a * matches across them. Names (owners, repositories,
    // users) are compared as the server compares them, case-insensitively: the plan names scopes as the
    // server spells them (src/scopes/names.ts), the selector as the config does.
    const nocase = !known.acrossSlashes;
    const glob = picomatch(name, { dot: true, nocase, ...(known.acrossSlashes ? { bash: true } : {}) });
    return { selector: s, type, hit: false, match: (value: string) => value === name || (nocase && value.toLowerCase() === name.toLowerCase()) || glob(value) };
  });
  /** Every name asked about, by selector type: what a selector that matched nothing is compared with. */
  const asked = new Map<string, Set<string>>();
  const object = (type: string, name: string) => {
    let names = asked.get(type);
    if (!names) asked.set(type, (names = new Set()));
    names.add(name);
    let any = false;
    // Every selector is tried (no short cut), so that each one learns whether it ever matched.
    for (const m of matchers) {
      if (m.type !== type || !m.match(name)) continue;
      m.hit = true;
      any = true;
    }
    return any;
  };
  return {
    scope: (scope) => object(scope.type, scope.name),
    object,
    unmatched: () =>
      matchers
        .filter((m) => !m.hit)
        .map((m) => {
          const near = nearestNames(m.selector.slice(m.type.length + 1), asked.get(m.type) ?? []);
          return { selector: m.selector, nearest: near.names.map((n) => `${m.type}:${n}`), close: near.close };
        }),
  };
}
