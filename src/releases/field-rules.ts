/**
 * The binding rules of each release's option structs (scripts/field-rules.mjs reads them from the
 * tag's `modules/structs/*.go` into field-rules/<release>.json, committed): ONE table, read by the
 * sandbox's binder (a released flavour binds with its release's rules) and by the plan (every value a
 * kind sends is checked against the struct its write sends, src/plan/field-rules.ts). Releases
 * between the tables read (Forgejo 8–10, 12–14) use the nearest older table; a release older than
 * every table the oldest, a newer one the newest.
 */
import gitea121 from './field-rules/gitea@1.21.json' with { type: 'json' };
import gitea122 from './field-rules/gitea@1.22.json' with { type: 'json' };
import gitea123 from './field-rules/gitea@1.23.json' with { type: 'json' };
import gitea124 from './field-rules/gitea@1.24.json' with { type: 'json' };
import gitea125 from './field-rules/gitea@1.25.json' with { type: 'json' };
import gitea126 from './field-rules/gitea@1.26.json' with { type: 'json' };
import forgejo7 from './field-rules/forgejo@7.json' with { type: 'json' };
import forgejo11 from './field-rules/forgejo@11.json' with { type: 'json' };
import forgejo15 from './field-rules/forgejo@15.json' with { type: 'json' };

/** One field of an option struct with a `binding:"…"` tag, as one release declares it. */
export interface FieldRule {
  /** Go struct: `CreateOrgOption`. */
  struct: string;
  /** JSON key: `full_name`. */
  json: string;
  /** Go field name, as 422 answers name it: `[FullName]: MaxSize`. */
  go: string;
  /** Go type as written: `string`, `*string`. */
  type: string;
  /** The tag's rules in order: `['ValidUrl', 'MaxSize(255)']`. */
  rules: string[];
  /** The tag as written. */
  tag: string;
  /** Where: `modules/structs/org.go:53`. */
  at: string;
}

export interface FieldRuleTable {
  /** `gitea@1.25`, `forgejo@11`. */
  release: string;
  /** `v1.25.4:modules/structs/*.go`. */
  source: string;
  /** The binding module the tag's go.mod pins, `gitea.com/go-chi/binding v0.0.0-…` (rules.ts BINDING_MODES). */
  binding: string;
  fields: FieldRule[];
}

export type Fork = 'gitea' | 'forgejo';

/** The tables, per fork, oldest first, with the release number each is (Gitea's minor, Forgejo's major). */
const TABLES: Record<Fork, readonly (readonly [number, FieldRuleTable])[]> = {
  gitea: [
    [21, gitea121],
    [22, gitea122],
    [23, gitea123],
    [24, gitea124],
    [25, gitea125],
    [26, gitea126],
  ],
  forgejo: [
    [7, forgejo7],
    [11, forgejo11],
    [15, forgejo15],
  ],
};

/** Every table, for tests and listings. */
export const FIELD_RULE_TABLES: readonly FieldRuleTable[] = [...TABLES.gitea, ...TABLES.forgejo].map(([, t]) => t);

/** The table for a release number of a fork (Gitea 1.25 → 25, Forgejo 11 → 11): the nearest at or below, else the oldest. */
export function fieldRuleTable(fork: Fork, release: number): FieldRuleTable {
  const tables = TABLES[fork];
  let out = tables[0]![1];
  for (const [n, t] of tables) if (n <= release) out = t;
  return out;
}

/** The table of a release by its full version ("1.25.4", "11.0.2"). */
export function fieldRuleTableOf(fork: Fork, version: string): FieldRuleTable {
  const [major = 0, minor = 0] = version.replace(/^v/, '').split('.').map(Number);
  return fieldRuleTable(fork, fork === 'gitea' ? minor + (major > 1 ? 100 : 0) : major);
}

/** The struct's fields with rules in a table, by JSON key; undefined when the table has no rules for that struct. */
export function structRules(table: FieldRuleTable, struct: string): ReadonlyMap<string, FieldRule> | undefined {
  const fields = table.fields.filter((f) => f.struct === struct);
  return fields.length ? new Map(fields.map((f) => [f.json, f])) : undefined;
}
