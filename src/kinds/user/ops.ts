import { apiPath } from '../../gitea/path.js';
import { changeId, type CurrentObject, type Op, type Writing } from '../../model/index.js';
import { EMAIL_AFTER, emailFacts, emailShown, OLD_EMAIL_DELETED } from './emails.js';
import type { UserTypes } from './types.js';
import { isUnfinished, UNFINISHED_LOGIN_NAME } from './unfinished.js';
import { badgeOps, keyOps, sshKeyIdentity } from './extras.js';
import type { KnownKey } from './types.js';

/** What POST /admin/users takes (CreateUserOption); the rest needs a PATCH after the create. */
const CREATE_FIELDS = ['email', 'full_name', 'login_name', 'source_id', 'visibility', 'restricted', 'must_change_password', 'password'];
/** What PATCH /admin/users/{username} takes (EditUserOption). */
const EDIT_FIELDS: ReadonlySet<string> = new Set([
  'email', 'full_name', 'login_name', 'source_id', 'visibility', 'restricted', 'admin', 'active', 'prohibit_login', 'website', 'location', 'description',
  'max_repo_creation', 'allow_create_organization', 'allow_git_hook', 'allow_import_local', 'must_change_password', 'password',
  // Forgejo only (the field's availability keeps it off other servers).
  'pronouns',
]);
/** Values a new user already has: a create does not PATCH them. */
const CREATED_WITH: Record<string, unknown> = { admin: false, active: true, prohibit_login: false, website: '', location: '', description: '' };

/** Context values of a user change: its purge (delete) and the keys as declared (their text is not in ssh_keys). */
export const PURGE = 'purge';
export const DECLARED_KEYS = 'ssh_keys_declared';

/**
 * The keys a change shows as declared (its context value, written by shown): at apply it comes from
 * the plan file, so what is not a {title, key} pair is no key.
 */
function declaredKeys(value: unknown): { title: string; key: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((k: unknown) => (typeof k === 'object' && k !== null && 'title' in k && 'key' in k && typeof k.title === 'string' && typeof k.key === 'string' ? [{ title: k.title, key: k.key }] : []));
}

/** The body of PATCH /admin/users/{name}: what Gitea requires in every edit, then the fields to send. */
function editBody(name: string, want: Record<string, unknown>, current: CurrentObject | undefined, send: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {
    // Required (binding) and always written by Gitea: keep the current value unless the config manages it.
    // The mark of an unfinished create (src/kinds/user/unfinished.ts) is replaced: this edit finishes it.
    login_name: 'login_name' in want ? want.login_name : (current && !isUnfinished(current.fields) && current.fields.login_name) || name,
    // Required by the newest API description; 0 means "unchanged".
    source_id: 'source_id' in want ? want.source_id : ((current?.fields.source_id) ?? 0),
  };
  for (const f of send) body[f] = want[f];
  return body;
}

export const writing = {
  context: [PURGE, DECLARED_KEYS, EMAIL_AFTER, OLD_EMAIL_DELETED],

  shown(req) {
    const { action, desired, current, changed, ctx } = req;
    if (action === 'delete') return ctx.policy.purge_users ? { [PURGE]: true } : undefined;
    const out: Record<string, unknown> = emailShown(desired, current, emailFacts(req, req.prepared));
    const keys = desired.meta?.sshKeys;
    if (keys && (action === 'create' || changed.includes('ssh_keys'))) out[DECLARED_KEYS] = keys.map((k) => ({ title: k.title, key: k.key }));
    return Object.keys(out).length ? out : undefined;
  },

  // An address that moves between users: the user who has it gives it up first (src/kinds/user/emails.ts).
  dependsOn({ scope, shown, self }) {
    const from = shown[EMAIL_AFTER];
    return typeof from === 'string' ? [changeId(self, scope, from)] : [];
  },

  ops({ action, desired, current, changed, shown }) {
    if (action === 'delete') {
      const purge = shown[PURGE] === true;
      return [
        {
          method: 'DELETE',
          path: apiPath('admin', 'users', current.key),
          ...(purge ? { query: { purge: true } } : {}),
          onStatus: {
            '422': purge
              ? `Gitea refused to delete user "${current.key}"`
              : `Gitea refused to delete user "${current.key}": move or delete what it owns first, or set policy.purge_users: true to delete it with its repositories and the organisations it alone owns`,
          },
        },
      ];
    }
    const name = desired.key;
    const want = desired.fields;
    const userPath = apiPath('admin', 'users', name);
    const declared = declaredKeys(shown[DECLARED_KEYS]);
    const wantedKeys: KnownKey[] = declared.map((k) => ({ ...k, identity: sshKeyIdentity(k.key) }));
    const ops: Op[] = [];
    if (action === 'create') {
      const body: Record<string, unknown> = { username: name };
      for (const f of CREATE_FIELDS) if (f in want) body[f] = want[f];
      const later = Object.keys(want).filter((f) => EDIT_FIELDS.has(f) && !CREATE_FIELDS.includes(f) && !(f in CREATED_WITH && CREATED_WITH[f] === want[f]));
      // Until the PATCH below replaces it, the user is marked unfinished: every later plan sees what is left.
      if (later.length && !('login_name' in want) && !want.source_id) body.login_name = UNFINISHED_LOGIN_NAME;
      ops.push({ method: 'POST', path: 'admin/users', body });
      if ('badges' in want) ops.push(...badgeOps(name, want.badges, []));
      ops.push(...keyOps(name, wantedKeys, []));
      // Last, so that apply compares the server's answer (the user) with what the plan wanted.
      // It sets values only: sent twice, it does what it does once; so a lost answer or a 5xx sends it again (Op.idempotent).
      if (later.length) ops.push({ method: 'PATCH', path: userPath, body: editBody(name, want, undefined, later), reason: 'Gitea cannot set these when it creates a user', idempotent: true });
      return ops;
    }
    const cur = current;
    if (action === 'rename')
      ops.push({
        method: 'POST',
        path: apiPath('admin', 'users', cur.key, 'rename'),
        body: { new_username: name },
        // A release that does not report source_id (Gitea 1.21, Forgejo 7) may hide that the user is external.
        onStatus: { '500': `the server could not rename user "${cur.key}"; if it says "user is not local type", the user signs in through an external login source, which Gitea (and Forgejo before 13) cannot rename: make it local first (Site Administration → User Accounts → Edit)` },
      });
    if (changed.includes('badges')) ops.push(...badgeOps(name, want.badges, cur.fields.badges));
    if (changed.includes('ssh_keys')) ops.push(...keyOps(name, wantedKeys, cur.meta?.sshKeys ?? []));
    const send = changed.filter((f) => EDIT_FIELDS.has(f));
    if (send.length) ops.push({ method: 'PATCH', path: userPath, body: editBody(name, want, cur, send) });
    const old = shown[OLD_EMAIL_DELETED];
    // After the PATCH, which kept the old address as a secondary one: another user of this plan takes it.
    if (typeof old === 'string') ops.push({ method: 'DELETE', path: apiPath('admin', 'users', name, 'emails'), body: { emails: [old] }, reason: `delete the old address ${old}, which another user takes (this server keeps it when the e-mail changes)` });
    return ops;
  },
} satisfies Writing<UserTypes>;
