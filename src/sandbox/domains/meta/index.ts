/** `/version`, `/settings/api`: public server facts; the seed's `flavor:` (which release to play), `federation:` and `timezone:`. */
import type { SandboxDomain } from '../../core/domain.js';
import { bool, SeedError, str } from '../../core/seed-shape.js';
import { FlavorError, parseFlavor } from '../../flavors/flavor.js';
import { registerMiscRoutes } from './routes.js';
import { isTimeZone } from '../../core/timezone.js';

export const metaDomain: SandboxDomain = {
  name: 'meta',
  routes: registerMiscRoutes,
  seed: {
    keys: ['flavor', 'federation', 'timezone'],
    // Checked here so that a bad flavour is a seed error naming the key; `startSandbox` plays it.
    load: (cx) => {
      bool(cx.top.federation, 'federation');
      const zone = str(cx.top.timezone, 'timezone');
      if (zone !== undefined && !isTimeZone(zone)) throw new SeedError(`timezone: unknown time zone "${zone}": expected an IANA name such as Europe/Berlin, or UTC`);
      const name = str(cx.top.flavor, 'flavor');
      if (name === undefined) return;
      try {
        parseFlavor(name);
      } catch (e) {
        if (e instanceof FlavorError) throw new SeedError(`flavor: ${e.message}`);
        throw e;
      }
    },
  },
};
