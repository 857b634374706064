import { apiPath } from '../../gitea/path.js';
import { orgKind, userChangeIds } from '../org/index.js';
import { splitRepo, type KindWriting, type OpsInput } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';

export const writing = {
  dependsOn({ action, desired, scope, ctx }: OpsInput) {
    if (action !== 'create') return [];
    const [owner] = splitRepo(desired.key);
    const org = ctx.madeBy(orgKind, scope, owner);
    return [...(org ? [org] : []), ...userChangeIds(ctx, scope, owner)];
  },

  ops({ action, desired }) {
    if (action !== 'create') return notAnActionOf('repository', action);
    const [owner, name] = splitRepo(desired.key);
    const body: Record<string, unknown> = { name };
    for (const [k, v] of Object.entries(desired.fields)) body[k] = k === 'gitignores' ? (v as string[]).join(',') : v;
    return [{ method: 'POST', path: apiPath('admin', 'users', owner, 'repos'), body }];
  },
} satisfies KindWriting;
