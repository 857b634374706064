import type { ConfigPath, SourceLocation } from '../diagnostic.js';
import type { SecretTemplates } from '../secret.js';

// The shape of a validated config. schemas/forgeform.schema.json is the source of truth; these types
// mirror it so the rest of the code is checked against it (test/unit/schema-types.test.ts keeps them in step).

export interface Config {
  version: 1;
  server?: { url?: string };
  policy?: Policy;
  users?: Record<string, UserConfig>;
  hooks?: HookConfig[];
  orgs?: Record<string, OrgConfig>;
  repos?: Record<string, RepoConfig>;
  actions?: ActionsConfig;
}

export interface Policy {
  /** Kinds whose undeclared objects are deleted, inside declared scopes only. */
  prune?: string[];
  max_deletes?: number;
  /** A plan deleting more than this share of a kind's objects in a scope (of at least 10) is unsafe. */
  max_delete_fraction?: number;
  protected_users?: string[];
  /** Users are deleted with ?purge=true: their repositories, packages and the organisations they alone own go too. */
  purge_users?: boolean;
}

export type Visibility = 'public' | 'limited' | 'private';

export interface UserConfig {
  email?: string;
  full_name?: string;
  login_name?: string;
  source_id?: number;
  visibility?: Visibility;
  restricted?: boolean;
  admin?: boolean;
  active?: boolean;
  prohibit_login?: boolean;
  website?: string;
  location?: string;
  description?: string;
  // Write-only: never returned by the server.
  max_repo_creation?: number;
  allow_create_organization?: boolean;
  allow_git_hook?: boolean;
  allow_import_local?: boolean;
  must_change_password?: boolean;
  password?: string;
  previously?: string[];
  badges?: string[];
  ssh_keys?: SshKeyConfig[];
}

export interface SshKeyConfig {
  title: string;
  key: string;
}

export type HookScope = 'system' | 'default';

export interface HookConfig {
  url: string;
  scope?: HookScope;
  type?: string;
  content_type?: 'json' | 'form';
  events?: string[];
  branch_filter?: string;
  active?: boolean;
  name?: string;
  secret?: string;
  authorization_header?: string;
  // Slack only.
  channel?: string;
  username?: string;
  icon_url?: string;
  color?: string;
}

export interface ActionsConfig {
  runners?: Record<string, RunnerConfig>;
}

export interface RunnerConfig {
  disabled?: boolean;
}

export interface RepoCreateConfig {
  private?: boolean;
  description?: string;
  auto_init?: boolean;
  default_branch?: string;
  gitignores?: string[];
  license?: string;
  readme?: string;
}

export interface LabelConfig {
  color?: string;
  description?: string;
  exclusive?: boolean;
  is_archived?: boolean;
  previously?: string[];
}

export interface OrgConfig {
  owner?: string;
  full_name?: string;
  description?: string;
  visibility?: Visibility;
  website?: string;
  location?: string;
  label_template?: string;
  labels?: Record<string, LabelConfig>;
}

export interface RepoConfig {
  create?: RepoCreateConfig;
  label_template?: string;
  labels?: Record<string, LabelConfig>;
  branch_protections?: Record<string, BranchProtectionConfig>;
  issues?: Record<string, IssueConfig>;
}

export interface IssueConfig {
  labels?: string[];
  labels_mode?: 'add' | 'exact';
  state?: 'open' | 'closed';
  title?: string;
  body?: string;
  milestone?: string | null;
  assignees?: string[];
  due_date?: string | null;
  projects?: number[];
  ref?: string;
}

export type BranchProtectionConfig = Record<string, boolean | number | string | string[]>;

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
}
