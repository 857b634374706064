// The shape of a validated config. schemas/forgeform.schema.json is the source of truth; these types
// mirror it so the rest of the code is checked against it (test/unit/schema-types.test.ts keeps them in step).

export interface Config {
  version: 1;
  server?: { url?: string };
  policy?: Policy;
  orgs?: Record<string, OrgConfig>;
  repos?: Record<string, RepoConfig>;
}

export interface Policy {
  /** Kinds whose undeclared objects are deleted, inside declared scopes only. */
  prune?: string[];
  max_deletes?: number;
  protected_users?: string[];
}

export interface LabelConfig {
  color?: string;
  description?: string;
  exclusive?: boolean;
  is_archived?: boolean;
  previously?: string[];
}

export interface OrgConfig {
  label_template?: string;
  labels?: Record<string, LabelConfig>;
}

export interface RepoConfig {
  label_template?: string;
  labels?: Record<string, LabelConfig>;
  branch_protections?: Record<string, BranchProtectionConfig>;
}

export type BranchProtectionConfig = Record<string, boolean | number | string | string[]>;

/** A place in a config file; line and col are 1-based. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

export type ConfigPath = (string | number)[];

export interface LoadedConfig {
  config: Config;
  /** Where a value (or, with atKey, its key) was written; undefined for values that came from nowhere. */
  locate(path: ConfigPath, atKey?: boolean): SourceLocation | undefined;
  files: string[];
  /** Values that came from environment variables, by variable name: masked in every output. */
  secrets: Map<string, string>;
  /** sha256 of the files' contents, for the plan file. */
  digest: string;
}
