import picomatch from 'picomatch';
import type { Scope } from '../kinds/types.js';
import { UserError } from './output.js';

const types: Record<string, Scope['type']> = { repo: 'repo', org: 'org' };

/** --target repo:acme/widgets, org:acme (globs allowed): restricts plan and apply to those scopes. */
export function parseTargets(selectors: string[] | undefined): ((scope: Scope) => boolean) | undefined {
  if (!selectors?.length) return undefined;
  const matchers = selectors.map((s) => {
    const i = s.indexOf(':');
    const type = types[s.slice(0, i)];
    if (i < 0 || !type || !s.slice(i + 1)) throw new UserError(`--target "${s}": expected repo:OWNER/NAME or org:NAME (globs allowed)`);
    return { type, match: picomatch(s.slice(i + 1), { dot: true }) };
  });
  return (scope) => matchers.some((m) => m.type === scope.type && m.match(scope.name));
}
