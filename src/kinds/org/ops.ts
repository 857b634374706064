import { apiPath } from '../../gitea/path.js';
import { userKind } from '../user/index.js';
import type { Op, Scope, ScopeContext, Writing } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';
import { fields, ORG_LIST, type OrgTypes } from './read.js';

/**
 * `PATCH /orgs/{org}` on Gitea ≤ 1.25 and every Forgejo writes these from plain strings, whether sent
 * or not: an omitted one is cleared (routers/api/v1/org/org.go `optional.Some(form.FullName)`). Every
 * edit sends all four, the current value where the config is silent; harmless where they are
 * pointers (Gitea 1.26), so it is done on every server.
 */
const WRITTEN_WHATEVER_SENT = ['full_name', 'description', 'website', 'location'];

/** The owner a missing organisation is created for: not a compared field, shown with the create. */
export const OWNER = 'owner';

/** The change ids that create or rename a user in this plan (a new owner must exist first). */
export function userChangeIds(ctx: ScopeContext, scope: Scope, name: string): string[] {
  const made = ctx.madeBy(userKind, scope, name);
  return made ? [made] : [];
}

export const writing = {
  context: [OWNER],

  shown({ action, desired }) {
    return action === 'create' ? { [OWNER]: desired.fields[OWNER] } : undefined;
  },

  dependsOn({ action, shown, scope, ctx }) {
    return action === 'create' ? userChangeIds(ctx, scope, String(shown[OWNER])) : [];
  },

  ops({ action, desired, current, changed, shown }) {
    if (action === 'delete') return notAnActionOf('organisation', action);
    const want = desired.fields;
    if (action === 'create') {
      const body: Record<string, unknown> = { username: desired.key };
      for (const f of fields) if (f.name in want && f.name !== 'email') body[f.name] = want[f.name];
      const create: Op = { method: 'POST', path: apiPath('admin', 'users', String(shown[OWNER]), 'orgs'), body };
      if (!('email' in want)) return [create];
      // The admin create ignores the e-mail; the edit that sets it keeps what the create wrote.
      const kept = Object.fromEntries(WRITTEN_WHATEVER_SENT.map((f) => [f, want[f] ?? '']));
      return [create, { method: 'PATCH', path: apiPath('orgs', desired.key), body: { ...kept, email: want.email }, reason: 'Gitea does not set the e-mail when it creates an organisation', restsOn: ORG_LIST }];
    }
    const body: Record<string, unknown> = Object.fromEntries(WRITTEN_WHATEVER_SENT.map((f) => [f, current.fields[f] ?? '']));
    for (const f of changed) body[f] = want[f];
    return [{ method: 'PATCH', path: apiPath('orgs', current.key), body, restsOn: ORG_LIST }];
  },
} satisfies Writing<OrgTypes>;
