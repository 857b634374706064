/**
 * An option struct as one release declares it: the sandbox declares each struct with the union
 * of every release's fields, and a release's binder sees only its own (`REQUEST_FIELDS`). A field
 * taken out here is ignored by binding and noted in the request log as unknown, as the real
 * server ignores it.
 */
import type { OptionDef } from '../http/options.js';
import type { Flavor } from './flavor.js';
import { available, REQUEST_FIELDS } from './releases.js';

const cache = new WeakMap<Flavor, Map<OptionDef, OptionDef>>();

export function optionFor(opt: OptionDef, flavor: Flavor | undefined): OptionDef {
  const table = REQUEST_FIELDS[opt.name];
  if (!flavor || !table) return opt;
  let byOpt = cache.get(flavor);
  if (!byOpt) cache.set(flavor, (byOpt = new Map()));
  let out = byOpt.get(opt);
  if (!out) {
    const fields = opt.fields.filter((d) => available(flavor, table[d.json]));
    out = fields.length === opt.fields.length ? opt : { name: opt.name, fields };
    byOpt.set(opt, out);
  }
  return out;
}
