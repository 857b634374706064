import type { ConfigPath } from '../config/types.js';

export interface DesiredObject {
  key: string;
  /** Managed fields only, normalized. */
  fields: Record<string, unknown>;
  previously?: string[];
  /** Where the object was declared, for error messages. */
  path: ConfigPath;
}

export interface CurrentObject {
  key: string;
  id?: number | string;
  /** Every field the server returned, normalized. */
  fields: Record<string, unknown>;
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
}
