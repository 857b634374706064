import type { Availability } from './server.js';
import type { ValueType } from '../gitea/answer.js';

/** How a field is compared: scalars by value, sets ignoring order and duplicates, text as multi-line. */
export type FieldType = 'scalar' | 'set' | 'text';

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** Brings config and server values to one comparable shape (e.g. colours without '#'). */
  normalize?: (value: unknown) => unknown;
  /** Can be written but is never returned by the server: never compared. */
  writeOnly?: boolean;
  /** Never printed: rendered as (sensitive). */
  sensitive?: boolean;
  /**
   * A long one-line value that is no secret (an SSH public key): text and markdown plans show its start
   * and end (src/render/values.ts); JSON and plan files keep it whole.
   */
  abbreviated?: boolean;
  /**
   * false: the field is server-normalised: a write answer's value is not comparable with what was sent
   * (an issue's labels in add mode). Otherwise a write whose answer holds another value than sent is an
   * inconsistent result, and apply fails naming the field and the release (src/apply/executor.ts).
   */
  readBack?: boolean;
  /** A set whose elements are added and removed by a request each (a team's members): the plan shows each element added or removed. */
  perElement?: boolean;
  /**
   * Write-only, and sent only when the object is created: the server has no edit of it (a pull mirror's
   * credentials), so no edit carries it, not even with --rotate-secrets or --sync-write-only.
   */
  createOnly?: boolean;
  /** Write-only, and the server clears it on any edit that omits it: every edit of the object sends (and shows) it. */
  resendOnEdit?: boolean;
  /**
   * The releases of each fork that have the field (absent: every release of both). A server without
   * it would ignore it, so the value would never converge: the plan refuses a config that sets it
   * there (src/plan/availability.ts), and export leaves it out.
   */
  availability?: Availability;
  /** Why a release without it cannot have it, as the plan's hint says it (default: the server would ignore it). */
  unavailableHint?: string;
  /**
   * The type the server answers the field in, under its own name (absent or null allowed): a read
   * whose answer holds another type is refused, never coerced (src/gitea/answer.ts, shapeOfFields).
   */
  answer?: ValueType;
  /**
   * The field as the config writes it: its JSON Schema (title, description, type and checks). The
   * kind's schema fragment, the config types, its docs page's field table and docs/servers.md are
   * generated from it (npm run schema); absent on fields no config declares.
   */
  config?: ConfigSchema;
}

/**
 * A JSON Schema node of the config, written by the kind that owns it (src/kinds/<kind>/fields.ts).
 * Only title and description are required: they are what the docs and the editor show.
 */
export interface ConfigSchema {
  title?: string;
  description?: string;
  type?: string | string[];
  [keyword: string]: unknown;
}

/**
 * An entry of a kind's config that is not a field of the server's object (a rename's `previously`,
 * an issue's `labels_mode`, a hook's `url`): in the schema, types and docs like a field, never diffed.
 */
export interface ConfigEntry {
  name: string;
  config: ConfigSchema;
  /** Always false: what tells it from a FieldSpec in a kind's list of entries. */
  serverField: false;
}

/** What a kind's config object holds, in its order: server fields and config-only entries. */
export type EntrySpec = FieldSpec | ConfigEntry;

/**
 * A kind's schema fragment: the definitions it owns, for a kind with a section of its own that
 * top-level property, and its entries of `policy` (scripts/assemble-schema.mjs assembles them with
 * schemas/parts/root.json).
 */
export interface SchemaFragment {
  properties?: Record<string, ConfigSchema>;
  definitions?: Record<string, ConfigSchema>;
  /** The entries of the config's `policy` the kind owns (KindMeta.policy), after the root's own. */
  policy?: Record<string, ConfigSchema>;
}
