// The types the deploy_key kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { RepoConfig } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';

/** A deploy key as the server answers it (modules/structs/repo_key.go DeployKey; its shape checked, see read.ts). */
export type ServerDeployKey = Record<string, unknown> & { id: number; title: string; key: string; read_only?: boolean };

/**
 * What a scope's changes are judged with (prepare): which titles hold each key (by identity) on the server now,
 * and the titles the config declares there.
 */
export interface DeployKeyFacts {
  holders: ReadonlyMap<string, readonly string[]>;
  declared: ReadonlySet<string>;
}

/** What the kind is typed by: its section of the scope's config, a deploy key as answered, the scope's facts (prepare), no state per run. */
export type DeployKeyTypes = KindTypes<Pick<RepoConfig, 'deploy_keys'>, ServerDeployKey, DeployKeyFacts, undefined>;
