/** `/version`, `/settings/api`: public server facts; the seed's `flavour:` (which release to play), `federation:` and `timezone:`. */
import type { SandboxDomain } from '../../core/domain.js';
import { bool, SeedError, str } from '../../core/seed-shape.js';
import { FlavourError, parseFlavour } from '../../flavours/flavour.js';
import { registerMiscRoutes } from './routes.js';
import { isTimeZone } from '../../core/timezone.js';

/** Which key of the seed names the release: `flavour`, or `flavor` (its first spelling); not both. */
export function seedFlavourKey(top: Record<string, unknown>): 'flavour' | 'flavor' {
  if (top.flavour !== undefined && top.flavor !== undefined) throw new SeedError('flavor: give the release once, as flavour: (flavor: is its first spelling)');
  return top.flavor !== undefined ? 'flavor' : 'flavour';
}

export const metaDomain: SandboxDomain = {
  name: 'meta',
  routes: registerMiscRoutes,
  seed: {
    // `flavor:`, the first spelling, is still read.
    keys: ['flavour', 'flavor', 'federation', 'timezone'],
    // Checked here so that a bad flavour is a seed error naming the key; `startSandbox` plays it.
    load: (cx) => {
      bool(cx.top.federation, 'federation');
      const zone = str(cx.top.timezone, 'timezone');
      if (zone !== undefined && !isTimeZone(zone)) throw new SeedError(`timezone: unknown time zone "${zone}": expected an IANA name such as Europe/Berlin, or UTC`);
      const key = seedFlavourKey(cx.top);
      const name = str(cx.top[key], key);
      if (name === undefined) return;
      try {
        parseFlavour(name);
      } catch (e) {
        if (e instanceof FlavourError) throw new SeedError(`${key}: ${e.message}`);
        throw e;
      }
    },
  },
};
