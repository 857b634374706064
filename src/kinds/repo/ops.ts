import { apiPath } from '../../gitea/path.js';
import { orgKind, userChangeIds } from '../org/index.js';
import { splitRepo, type Writing } from '../../model/index.js';
import { asSet } from '../fields.js';
import type { RepoTypes } from './types.js';
import { notAnActionOf } from '../actions.js';

export const writing = {
  dependsOn({ action, desired, scope, ctx }) {
    if (action !== 'create') return [];
    const [owner] = splitRepo(desired.key);
    const org = ctx.madeBy(orgKind, scope, owner);
    return [...(org ? [org] : []), ...userChangeIds(ctx, scope, owner)];
  },

  ops({ action, desired }) {
    if (action !== 'create') return notAnActionOf('repository', action);
    const [owner, name] = splitRepo(desired.key);
    const body: Record<string, unknown> = { name };
    for (const [k, v] of Object.entries(desired.fields)) body[k] = k === 'gitignores' ? asSet(v).join(',') : v;
    return [{ method: 'POST', path: apiPath('admin', 'users', owner, 'repos'), body }];
  },
} satisfies Writing<RepoTypes>;
