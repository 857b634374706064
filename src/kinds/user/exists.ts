// Whether an account (a user or an organisation: one namespace on the server) that a declared object
// names exists, asked at plan time so that apply does not fail on what the plan could know (issue 17).
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import type { ScopeContext } from '../../model/index.js';

/**
 * True when the server has no account of this name (only users: no user of it). Organisations first: the plan has usually read
 * GET orgs/{name} already while resolving its scopes (memoised for the plan, so no request more);
 * then GET users/{name}. The caller checks the plan's own creates first.
 */
export async function accountMissing(ctx: ScopeContext, name: string, only?: 'users'): Promise<boolean> {
  for (const path of only ? [apiPath('users', name)] : [apiPath('orgs', name), apiPath('users', name)]) {
    try {
      await ctx.cachedGet(path, { object: `account ${name}` });
      return false;
    } catch (e) {
      if (!isApiError(e, 404)) throw e;
    }
  }
  return true;
}
