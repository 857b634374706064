import { declaredEntries, normalizeFields } from '../fields.js';
import type { DesiredObject, Planning, Problem, Safety, Writing } from '../../model/index.js';
import type { DeployKeyConfig } from '../../config/types.js';
import { fields } from './fields.js';
import { keyIdentity, parseSshKey } from './ssh-key.js';
import type { DeployKeyTypes } from './types.js';

/**
 * What the server answers a second deploy key of one key material in a repository: `checkDeployKey` finds the
 * (key_id, repo_id) pair (models/asymkey/ssh_key_deploy.go Gitea v1.25.4 l.71-78, Forgejo v15.0.3 l.71-78) and
 * HandleAddKeyError answers it (routers/api/v1/repo/key.go Gitea v1.25.4 l.189-190, v1.21.11 and Forgejo v15.0.3 l.189-190).
 */
export const TWICE_REFUSED = '422 "This key has already been added to this repository"';

/** The problems of one declared key that need no server: a key the server cannot read (422 "Invalid key content: …"). */
function keyProblems(d: DeployKeyConfig, path: (string | number)[]): Problem[] {
  const parsed = parseSshKey(d.key);
  if (!('error' in parsed)) return [];
  return [{ path: [...path, 'key'], message: `the key is not an SSH public key the server reads (it answers 422 "Invalid key content: …"): ${parsed.error}` }];
}

export const planning = {
  async desired({ entry, scope }) {
    const declared = entry?.deploy_keys;
    if (!declared) return undefined;
    const objects: DesiredObject[] = [];
    const problems: Problem[] = [];
    const seen = new Map<string, string>();
    for (const [title, d] of declaredEntries<DeployKeyConfig>(declared)) {
      const path = ['repos', scope.name, 'deploy_keys', title];
      const own = keyProblems(d, path);
      problems.push(...own);
      if (own.length) continue;
      const identity = keyIdentity(d.key);
      const first = seen.get(identity);
      if (first !== undefined) {
        problems.push({ path: [...path, 'key'], message: `the same key as deploy key "${first}" (${identity}): the server refuses one key twice in a repository (${TWICE_REFUSED}); declare it once` });
        continue;
      }
      seen.set(identity, title);
      objects.push({ key: title, fields: normalizeFields(fields, { ...d }, true), path });
    }
    return { objects, problems };
  },

  /**
   * A key another deploy key of the repository holds on the server, where the plan does not remove that one
   * (it is not declared and policy.prune does not list deploy_keys): the create would be refused.
   */
  check({ desired, prepared, ctx, self, scope }) {
    const pruned = ctx.policy.prune.includes(self.pruneKey);
    const holders = prepared.holders.get(keyIdentity(desired.fields.key)) ?? [];
    const kept = holders.filter((t) => t !== desired.key && !prepared.declared.has(t) && !pruned);
    if (!kept.length) return [];
    return [{
      path: [...desired.path, 'key'],
      message: `this key is already deploy key "${kept[0]}" of ${scope.name}: the server refuses it twice (${TWICE_REFUSED}); declare it under the title "${kept[0]}", or add deploy_keys to policy.prune to delete "${kept[0]}" first`,
    }];
  },
} satisfies Planning<DeployKeyTypes>;

export const preparing = {
  /** Which titles hold each key on the server, and the titles declared: what check and dependsOn judge with. */
  async prepare({ current, desired }) {
    const holders = new Map<string, string[]>();
    for (const c of current) {
      const identity = keyIdentity(c.fields.key);
      holders.set(identity, [...(holders.get(identity) ?? []), c.key]);
    }
    return { holders, declared: new Set(desired.map((d) => d.key)) };
  },
} satisfies Pick<Writing<DeployKeyTypes>, 'prepare'>;

export const safety = {
  async annotate({ change }) {
    if (change.action !== 'replace') return undefined;
    return { notes: ['the server cannot edit a deploy key: it is deleted and added again (under a new id); a clone or push with it fails in between'] };
  },
} satisfies Safety<DeployKeyTypes>;
