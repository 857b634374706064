import { isApiError } from '../gitea/client.js';
import { apiPath } from '../gitea/path.js';
import { parseScopeId, type Scope, type ScopeContext, type ScopeCreationId } from '../model/index.js';

/**
 * A scope as the planner saw it, from the server now (apply of a saved plan): whether the plan
 * creates it, and for a repository whether it is archived, private, and owned by an organisation.
 */
export async function scopeNow(id: string, planned: Set<string>, ctx: ScopeContext, creationId: ScopeCreationId): Promise<Scope> {
  const scope = parseScopeId(id);
  const creating = (type: Scope['type'], name: string): string | undefined => {
    const change = creationId(type, name);
    return change !== undefined && planned.has(change) ? change : undefined;
  };
  if (scope.type === 'server') return scope;
  const pending = creating(scope.type, scope.name);
  if (scope.type === 'org') return pending ? { ...scope, pendingCreate: pending } : scope;
  const [owner, name] = [scope.name.slice(0, scope.name.indexOf('/')), scope.name.slice(scope.name.indexOf('/') + 1)];
  const ownerIsOrg = creating('org', owner) !== undefined || (await exists(ctx, apiPath('orgs', owner)));
  if (pending) return { ...scope, repo: { owner, name, ownerIsOrg, archived: false }, pendingCreate: pending };
  let archived = false;
  let isPrivate: boolean | undefined;
  try {
    const repo = await ctx.cachedGet<{ archived?: boolean; private?: boolean }>(apiPath('repos', owner, name), { object: `repository ${scope.name}` });
    archived = Boolean(repo?.archived);
    isPrivate = repo?.private === true;
  } catch (e) {
    if (!isApiError(e, 404)) throw e;
  }
  return { ...scope, repo: { owner, name, ownerIsOrg, archived, ...(isPrivate === undefined ? {} : { private: isPrivate }) } };
}

async function exists(ctx: ScopeContext, path: string): Promise<boolean> {
  try {
    await ctx.cachedGet(path);
    return true;
  } catch (e) {
    if (isApiError(e, 404)) return false;
    throw e;
  }
}
