// The types the repository kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { Config } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';

/** A repository as the server answers it (its shape checked): its id and full name, and its pull mirror. */
export interface ServerRepo {
  id: number;
  full_name: string;
  mirror?: boolean | null;
  mirror_interval?: string | null;
  original_url?: string | null;
}

/** The template names the server has (templates.ts), looked up only when a repository to create names templates of that type. */
export interface Templates {
  gitignores?: Set<string>;
  licenses?: Set<string>;
  /** The release's built-in readme templates and those policy.readme_templates lists (no API lists them). */
  readmes?: Set<string>;
  /** Owners of repositories to create that exist nowhere (not on the server, not made by this plan). */
  noOwner: Set<string>;
}

/** What the repository kind is typed by: the whole config (repositories are created server-wide), a repository as answered, the templates and owners looked up. */
export type RepoTypes = KindTypes<Config, ServerRepo, Templates>;
