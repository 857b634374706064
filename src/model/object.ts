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
