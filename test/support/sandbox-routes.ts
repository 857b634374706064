/** Every route the sandbox implements (whatever the release), with the option struct it binds, as the domains register them. */
import { Hono } from 'hono';
import { emptyState } from '../../src/sandbox/core/state-file.js';
import { DOMAINS } from '../../src/sandbox/domains/index.js';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import type { OptionDef } from '../../src/sandbox/http/options.js';
import { ApiRouter, type Method } from '../../src/sandbox/http/router.js';

export interface SandboxRoute {
  method: Method;
  path: string;
  option?: OptionDef;
}

export function sandboxRoutes(): SandboxRoute[] {
  const seen: SandboxRoute[] = [];
  class Recorder extends ApiRouter {
    override on(method: Method, path: string, ...steps: { bodyOption?: OptionDef }[]): void {
      seen.push({ method, path, option: steps.find((s) => s.bodyOption)?.bodyOption });
    }
  }
  const r = new Recorder(new Hono(), emptyState(), () => '/', FLAVOURS.at(-1)!);
  for (const d of DOMAINS) d.routes?.(r);
  return seen;
}
