import type { ConfigPath, SourceLocation } from '../diagnostic.js';
import type { SecretTemplates } from '../secret.js';

// The shape of a validated config, generated from the schema users' files are validated with.
export type * from './schema-types.js';
import type { Config } from './schema-types.js';

export type { ConfigPath, SourceLocation } from '../diagnostic.js';

export interface LoadedConfig {
  config: Config;
  /** Where a value (or, with atKey, its key) was written; undefined for values that came from nowhere. */
  locate(path: ConfigPath, atKey?: boolean): SourceLocation | undefined;
  files: string[];
  /** Values that came from environment variables, by variable name: masked in every output. */
  secrets: Map<string, string>;
  /** The ${NAME} templates of those values: what a Secret carries into a saved plan instead of the value. */
  secretTemplates: SecretTemplates;
  /** sha256 of the files' contents, for the plan file. */
  digest: string;
  /** The size of the files' contents in all: a large config's long steps say how far they are. */
  bytes?: number;
}
