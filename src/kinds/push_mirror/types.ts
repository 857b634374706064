// The types the push_mirror kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { RepoConfig } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';

/** A push mirror as the server answers it (modules/structs/mirror.go PushMirror; its shape checked, see read.ts). */
export type ServerPushMirror = Record<string, unknown> & { remote_name: string; remote_address: string };

/** What the kind is typed by: its section of the scope's config, a push mirror as answered, no lookups (prepare), no state per run. */
export type PushMirrorTypes = KindTypes<Pick<RepoConfig, 'push_mirrors'>, ServerPushMirror, undefined, undefined>;
