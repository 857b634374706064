/**
 * A sandbox world with a misbehaving proxy in front of it (test/support/misbehaving-proxy.ts): the one setup
 * of the fault-injection tests (reliability-*, apply-lock-exits, inconsistent-result, diagnosis-under-faults),
 * each of which used to carry its own copy of it. `proxiedWorlds()` registers the afterEach that closes
 * every proxy and sandbox a test started; each call of what it returns starts one.
 */
import { afterEach } from 'vitest';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import { startMisbehavingProxy, type Misbehaviour, type MisbehavingProxy, type ProxiedRequest } from '../support/misbehaving-proxy.js';
import { world, type CliResult, type World } from './helpers.js';

export type Rule = (r: ProxiedRequest) => Misbehaviour | undefined;

export interface ProxiedWorld extends World {
  proxy: MisbehavingProxy;
  /** The built CLI talking to the proxy (FORGEFORM_URL), not to the sandbox: `w.cli` still goes straight to it. */
  viaProxy(args: string[], env?: NodeJS.ProcessEnv): Promise<CliResult>;
  /** From now on the proxy applies `rule` instead. */
  misbehave(rule: Rule): void;
}

/** Starts worlds behind a proxy applying `rule` (none: every request forwarded), closed after each test. */
export function proxiedWorlds(): (seed: SandboxOptions['seed'], rule?: Rule, extra?: Partial<SandboxOptions>) => Promise<ProxiedWorld> {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    // Proxies first (they hold connections to the sandbox), then the sandboxes.
    for (const o of open.splice(0).reverse()) await o.close();
  });
  return async (seed, rule = () => undefined, extra = {}) => {
    const w = await world(seed, extra);
    open.push(w.sandbox);
    let current = rule;
    const proxy = await startMisbehavingProxy(w.sandbox.url, (r) => current(r));
    open.push(proxy);
    return {
      ...w,
      proxy,
      viaProxy: (args, env = {}) => w.cli(args, { FORGEFORM_URL: proxy.url, ...env }),
      misbehave: (next) => {
        current = next;
      },
    };
  };
}
