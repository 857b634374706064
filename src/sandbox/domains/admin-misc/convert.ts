/** API `Package` objects. */
import { orgAsUser } from '../orgs/convert.js';
import { toUser } from '../users/convert.js';
import { toRepo } from '../repos/convert.js';
import type { ConvertContext } from '../../core/convert.js';
import { goPathEscape } from '../../http/respond.js';
import { repoAccessMode } from '../../core/permissions.js';
import { AccessMode, type UserRecord } from '../../core/state.js';
import type { PackageRecord } from './records.js';

/** `convert.ToPackage`: owner and creator as users, the linked repository when the caller may read it. */
export function toPackage(cx: ConvertContext, p: PackageRecord, doer: UserRecord | null): Record<string, unknown> {
  const owner = cx.state.ownerById(p.ownerId);
  const creator = cx.state.userById(p.creatorId);
  const repo = p.repoId ? cx.state.repoById(p.repoId) : undefined;
  const mode = repo ? repoAccessMode(cx.state, repo, doer) : AccessMode.None;
  const ownerName = owner?.name ?? '';
  return {
    id: p.id,
    owner: owner ? (owner.kind === 'user' ? toUser(cx, owner.user, doer) : orgAsUser(cx, owner.org, doer !== null)) : null,
    repository: repo && mode >= AccessMode.Read ? toRepo(cx, repo, mode) : null,
    creator: creator ? toUser(cx, creator, doer) : null,
    type: p.type,
    name: p.name,
    version: p.version,
    html_url: `${cx.root}${goPathEscape(ownerName)}/-/packages/${p.type}/${goPathEscape(p.name.toLowerCase())}/${goPathEscape(p.version.toLowerCase())}`,
    created_at: p.createdAt,
  };
}
