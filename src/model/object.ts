import type { ConfigPath } from '../config/types.js';

/**
 * Values an object carries that are none of its fields (an issue's label ids and body version, a
 * user's keys as the server lists them, an issue's labels_mode). Only its kind reads them (ops,
 * checks, export): the diff, the plan file and the saved plan's digest never see them (a kind that
 * wants some in the digest says so, see Kind.inDigest). A kind types its own meta in its KindTypes
 * (src/model/kind.ts; IssueMeta, …), and every phase of it gets its objects with their meta so typed.
 */
export type ObjectMeta = object;

export interface DesiredObject<M extends object = ObjectMeta> {
  key: string;
  /** Managed fields only, normalized. */
  fields: Record<string, unknown>;
  /** What the config says beside the fields (see ObjectMeta). */
  meta?: M;
  previously?: string[];
  /** Where the object was declared, for error messages. */
  path: ConfigPath;
}

export interface CurrentObject<M extends object = ObjectMeta> {
  key: string;
  id?: number | string;
  /** Every field the server returned, normalized. */
  fields: Record<string, unknown>;
  /** What the server returned beside the fields (see ObjectMeta). */
  meta?: M;
}

/**
 * An object of a kind as a plan leaves it (see ScopeContext.projected): renamed, edited, created, or as
 * the server has it; deleted ones are absent.
 */
export interface ProjectedObject {
  /** Its name once the plan is applied. */
  key: string;
  /** Its server id, or {"$ref": change id} for one the plan creates (apply puts the new id in its place). */
  id: number | string | { $ref: string } | undefined;
  /** The server's fields with the plan's planned values over them. */
  fields: Record<string, unknown>;
  /** The change after which it exists under this name (a create, rename or replace): a change that needs it waits for this one. */
  madeBy?: string;
  /** The change that updates it in place (its name kept): a change that needs its new values waits for this one. */
  changedBy?: string;
}
