import { apiPath } from '../../gitea/path.js';
import { orgKind, userChangeIds } from '../org/index.js';
import { splitRepo, type Writing } from '../../model/index.js';
import { asSet } from '../fields.js';
import type { RepoTypes } from './types.js';
import { notAnActionOf } from '../actions.js';

/** MigrateRepoOptions of a pull mirror: the source, owner and name, mirror: true, what the config declares. */
function migrateBody(owner: string, name: string, f: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { clone_addr: f.from, repo_owner: owner, repo_name: name, mirror: true, service: 'git' };
  const keys: [string, string][] = [['interval', 'mirror_interval'], ['username', 'auth_username'], ['password', 'auth_password'], ['private', 'private'], ['description', 'description']];
  for (const [field, key] of keys) if (field in f) body[key] = f[field];
  return body;
}

export const writing = {
  dependsOn({ action, desired, scope, ctx }) {
    if (action !== 'create') return [];
    const [owner] = splitRepo(desired.key);
    const org = ctx.madeBy(orgKind, scope, owner);
    return [...(org ? [org] : []), ...userChangeIds(ctx, scope, owner)];
  },

  ops({ action, desired, current }) {
    // A pull mirror's interval: the one field of an existing repository this kind changes (repo.go updateMirror).
    // The interval's edit rests on the repository's own GET, not on every list under repos/ (Op.restsOn).
    if (action === 'update') return [{ method: 'PATCH', path: apiPath('repos', ...splitRepo(current.key)), body: { mirror_interval: desired.fields.interval }, restsOn: `${apiPath('repos', ...splitRepo(current.key))}/` }];
    if (action !== 'create') return notAnActionOf('repository', action);
    const [owner, name] = splitRepo(desired.key);
    if ('from' in desired.fields) return [{ method: 'POST', path: 'repos/migrate', body: migrateBody(owner, name, desired.fields) }];
    const body: Record<string, unknown> = { name };
    for (const [k, v] of Object.entries(desired.fields)) body[k] = k === 'gitignores' ? asSet(v).join(',') : v;
    return [{ method: 'POST', path: apiPath('admin', 'users', owner, 'repos'), body }];
  },
} satisfies Writing<RepoTypes>;
