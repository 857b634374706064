/**
 * An option struct as one release declares it: the sandbox declares each struct with the union
 * of every release's fields in their newest form, and a release's binder sees only its own
 * (`requestHas`: the release's swagger, else `REQUEST_FIELDS`), each in that release's form (`FIELD_VARIANTS`: `[]int64` where a newer
 * release takes `[]any`, a required string where a newer one has an optional pointer). A field
 * taken out here is ignored by binding and noted in the request log as unknown, as the real
 * server ignores it.
 */
import type { FieldDef, OptionDef } from '../http/options.js';
import type { Flavour } from './flavour.js';
import { fieldRuleTable, structRules } from '../../releases/field-rules.js';
import { bindingModeOf, type BindingMode } from '../../releases/rules.js';
import { available, FIELD_VARIANTS, requestHas } from './releases.js';

const cache = new WeakMap<Flavour, Map<OptionDef, OptionDef>>();

/**
 * A released flavour binds with its release's rules (src/releases/field-rules: the tag's `binding:"…"`
 * tags, read by scripts/field-rules.mjs), for every struct the table has rules for: the plan checks
 * the same table, so what the sandbox refuses is what the plan refuses. `gitea@main` keeps the rules
 * declared in the domains' options.ts.
 */
function rulesFor(opt: OptionDef, d: FieldDef, flavour: Flavour): Partial<FieldDef> {
  if (flavour.release === Number.POSITIVE_INFINITY) return {};
  const table = structRules(fieldRuleTable(flavour.fork, flavour.release), opt.name);
  if (!table) return {};
  const rule = table.get(d.json);
  const rules = rule?.rules ?? [];
  // The rules of a Go pointer field are judged as the release's binder judges pointers (releases/rules.ts).
  const rulePointer = rule ? rule.type.startsWith('*') : undefined;
  return {
    ...(sameRules(rules, d.rules ?? []) ? {} : { rules }),
    ...(rulePointer === undefined || rulePointer === Boolean(d.pointer) ? {} : { rulePointer }),
  };
}

/** The binder's mode of a released flavour (its table's binding module); `gitea@main` reads values. */
function bindingFor(flavour: Flavour): BindingMode {
  return flavour.release === Number.POSITIVE_INFINITY ? 'value' : bindingModeOf(fieldRuleTable(flavour.fork, flavour.release).binding);
}

const sameRules = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((r, i) => r === b[i]);

function fieldFor(opt: OptionDef, d: FieldDef, flavour: Flavour): FieldDef {
  const variant = FIELD_VARIANTS[opt.name]?.[d.json]?.find((v) => available(flavour, v.in));
  const withVariant = variant ? { ...d, ...variant.def } : d;
  const rules = rulesFor(opt, withVariant, flavour);
  return Object.keys(rules).length ? { ...withVariant, ...rules } : withVariant;
}

export function optionFor(opt: OptionDef, flavour: Flavour | undefined): OptionDef {
  if (!flavour) return opt;
  let byOpt = cache.get(flavour);
  if (!byOpt) cache.set(flavour, (byOpt = new Map()));
  let out = byOpt.get(opt);
  if (!out) {
    const fields = opt.fields.filter((d) => requestHas(flavour, opt.name, d.json)).map((d) => fieldFor(opt, d, flavour));
    const binding = bindingFor(flavour);
    out = binding === 'value' && fields.length === opt.fields.length && fields.every((d, i) => d === opt.fields[i]) ? opt : { name: opt.name, fields, binding };
    byOpt.set(opt, out);
  }
  return out;
}
