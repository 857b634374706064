/**
 * The registered domains. `domains/index.ts` fills it when imported (the app and the seed loader
 * import it); generic code such as the cascading deletes reads it here, so that it depends on the
 * contract only, not on the domains.
 */
import type { SandboxDomain } from './domain.js';
import { registerAccess } from './permissions.js';

let registered: readonly SandboxDomain[] = [];

export function registerDomains(domains: readonly SandboxDomain[]): void {
  registered = domains;
  registerAccess(domains.flatMap((d) => (d.access ? [d.access] : [])));
}

export function domains(): readonly SandboxDomain[] {
  return registered;
}
