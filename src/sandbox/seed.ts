/**
 * The seed file (YAML): the users, organisations, repositories and other data the sandbox starts
 * with. Each domain reads its own keys (`domains/<domain>/seed.ts`), in registry order, through the
 * same create functions as the API, so a seeded label, branch protection or issue is stored exactly
 * as the server would store it after a create. The format is documented in README.md; unknown keys
 * are errors (with the path of the key), like the config schema.
 */
import { readFileSync, statSync } from 'node:fs';
import { MAX_CONFIG_BYTES, megabytes } from '../config/limits.js';
import { parse as parseYaml } from 'yaml';
import type { SeedContext } from './core/domain.js';
import { obj, SeedError } from './core/seed-shape.js';
import type { SandboxState, UserRecord } from './core/state.js';
import { emptyState } from './core/state-file.js';
import { DOMAINS } from './domains/index.js';
import type { SeedActions } from './domains/actions/seed.js';
import type { SeedActionsSettings } from './domains/actions-settings/seed.js';
import type { SeedAdminMiscKeys } from './domains/admin-misc/seed.js';
import type { SeedBranchProtections } from './domains/branch-protections/seed.js';
import type { SeedHooks, SeedWebhook } from './domains/hooks/seed.js';
import type { SeedTagProtections } from './domains/tag-protections/seed.js';
import type { SeedDeployKeys } from './domains/deploy-keys/seed.js';
import type { SeedIssue, SeedProject } from './domains/issues/seed.js';
import type { SeedLabel } from './domains/labels/seed.js';
import type { SeedMilestone } from './domains/milestones/seed.js';
import type { SeedMirrorSettings, SeedPullMirror, SeedPushMirror } from './domains/mirrors/seed.js';
import type { SeedNotification } from './domains/notifications/seed.js';
import type { SeedPublicMembers } from './domains/org-members/seed.js';
import type { SeedOrg } from './domains/orgs/seed.js';
import type { SeedRepo } from './domains/repos/seed.js';
import type { SeedTeam } from './domains/teams/seed.js';
import type { SeedAccountFile, SeedUser } from './domains/users/seed.js';

export { SeedError };

/** A whole seed file: each domain's keys, `orgs[]` and `repos[]` entries with the keys other domains add. */
export interface SeedFile extends SeedAccountFile, SeedAdminMiscKeys, SeedHooks, SeedMirrorSettings {
  users?: SeedUser[];
  orgs?: (SeedOrg & SeedPublicMembers & SeedActionsSettings & { teams?: SeedTeam[]; labels?: SeedLabel[]; hooks?: SeedWebhook[] })[];
  repos?: (SeedRepo & SeedBranchProtections & SeedTagProtections & SeedDeployKeys & SeedActionsSettings & { labels?: SeedLabel[]; milestones?: SeedMilestone[]; projects?: SeedProject[]; issues?: SeedIssue[]; push_mirrors?: SeedPushMirror[]; mirror?: SeedPullMirror; hooks?: SeedWebhook[] })[];
  actions?: SeedActions;
  notifications?: SeedNotification[];
  /** The release to play (`gitea@1.25`, `forgejo@11` …); `startSandbox({ flavour })` wins over it. */
  flavour?: string;
  /** The first spelling of `flavour`, still read. */
  flavor?: string;
  /** `[federation] ENABLED`: serve `/nodeinfo` (on releases that have it). */
  federation?: boolean;
  /** The server's time zone (an IANA name, default UTC): `due_date` is answered in it. */
  timezone?: string;
  /** Files of the server's custom/options: `readme` templates a create with auto_init accepts besides `Default` (domains/repos/readmes.ts). */
  custom_templates?: { readme?: string[] };
}

/**
 * Builds a state from a seed. Without users (or without a site admin), a site admin `root` is
 * added: the admin token always belongs to the first site admin.
 */
export function buildState(seed: SeedFile = {}): SandboxState {
  const state = emptyState();
  const top = obj(seed, 'seed', DOMAINS.flatMap((d) => d.seed?.keys ?? []));
  let admin: UserRecord | undefined;
  // The users domain loads first; no later domain adds a site admin, so the first one found stays.
  const cx: SeedContext = { state, top, admin: () => (admin ??= firstAdmin(state)), afterRepos: [] };
  for (const d of DOMAINS) d.seed?.load?.(cx);
  return state;
}

function firstAdmin(state: SandboxState): UserRecord {
  const admin = state.data.users.find((u) => u.isAdmin);
  if (!admin) throw new SeedError('the seed has no site admin yet');
  return admin;
}

/** The first site admin: the owner of the admin token. */
export function adminUser(state: SandboxState): UserRecord {
  const admin = state.data.users.find((u) => u.isAdmin && u.isActive);
  if (!admin) throw new SeedError('the sandbox state has no active site admin');
  return admin;
}

/** Reads and checks a seed file (YAML). Errors name the file and the key. */
export function loadSeedFile(path: string): SeedFile {
  return loadSeedFileState(path).seed;
}

/** {@link loadSeedFile}, with the state the check built: a caller that serves it need not build it again. */
export function loadSeedFileState(path: string): { seed: SeedFile; state: SandboxState } {
  let parsed: unknown;
  try {
    // The config's bound, checked before reading: a seed beyond it took minutes to parse and seed, saying nothing.
    const size = statSync(path).size;
    if (size > MAX_CONFIG_BYTES) throw new Error(`the file is ${megabytes(size)}: a seed may hold at most ${megabytes(MAX_CONFIG_BYTES)}, as a config (is this the right file?)`);
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new SeedError(`${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const seed = (parsed ?? {}) as SeedFile;
  try {
    return { seed, state: buildState(seed) };
  } catch (err) {
    if (err instanceof SeedError) throw new SeedError(`${path}: ${err.message}`);
    throw err;
  }
}
