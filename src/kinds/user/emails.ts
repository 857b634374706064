/**
 * An e-mail address that moves from one user to another in one plan. Gitea 1.25 deletes a user's old
 * primary address when its e-mail changes (`ReplacePrimaryEmailAddress`, v1.25.4 `services/user/email.go`
 * l.40–47); Gitea ≤ 1.24 and every Forgejo keep it as a secondary address of the same user
 * (`AdminAddOrSetPrimaryEmailAddress`, v1.24.7 l.36–45, Forgejo v15.0.3 l.40–49; Gitea 1.21's
 * `UpdateUser`, `models/user/user.go` l.839–845), where it still counts as used (`e-mail already in use`).
 * So the taker waits for the giver's change, and on releases that keep old addresses the giver's change
 * also deletes the old address (`DELETE /admin/users/{u}/emails`, Forgejo 14+) or the move is refused.
 */
import type { UserConfig } from '../../config/types.js';
import { describeServer, serverHas, type Availability, type CurrentObject, type DesiredObject, type PlanPolicy, type Problem, type ServerInfo } from '../../model/index.js';
import type { PlanRequest } from '../../model/index.js';
import type { UserFacts, UserTypes } from './types.js';

/** Releases that keep a user's old primary address as a secondary one when its e-mail changes. */
export const KEEPS_OLD_EMAIL: Availability = { gitea: { until: '1.24' }, forgejo: {} };
/**
 * `DELETE /admin/users/{username}/emails`: Forgejo 14 (v14.0.0 `routers/api/v1/api.go` l.1670–1672, `admin/user.go`
 * DeleteUserEmails l.565, the same as v15.0.3's, api.go l.1679–1681); not in v13.0.0 nor v11.0.15.
 */
export const ADMIN_USER_EMAILS: Availability = { forgejo: { since: '14' } };

/** Context values: the change (key) whose user gives the address up first; the old address a change deletes. */
export const EMAIL_AFTER = 'email_after';
export const OLD_EMAIL_DELETED = 'old_email_deleted';

const lc = (s: unknown) => String(s ?? '').toLowerCase();

/** What happens in this plan to the user who holds an address now. */
type Fate = { gives: 'update'; key: string } | { gives: 'delete'; key: string } | { gives: 'none' };

/** What an address's move is judged with, at plan time: the users the config declares, the users read, the policy, the server. */
export interface EmailFacts {
  declared: Record<string, UserConfig>;
  facts: UserFacts;
  policy: PlanPolicy;
  /** The users' prune key (policy.prune names it when undeclared users are deleted). */
  pruneKey: string;
  server: ServerInfo | undefined;
}

/** What an address's move is judged with, at plan time. */
export function emailFacts(req: PlanRequest<UserTypes>, facts: UserFacts): EmailFacts {
  return { declared: req.config.users ?? {}, facts, policy: req.ctx.policy, pruneKey: req.self.pruneKey, server: req.ctx.server };
}

/** The declared user that stands for a server user (by name, or by a previous name). */
function declarationOf(users: Record<string, UserConfig>, user: CurrentObject): [string, UserConfig] | undefined {
  const own = Object.hasOwn(users, user.key) ? users[user.key] : undefined;
  if (own) return [user.key, own];
  return Object.entries(users).find(([, u]) => (u.previously ?? []).includes(user.key));
}

function fateOf(e: EmailFacts, holder: CurrentObject, address: string): Fate {
  const decl = declarationOf(e.declared, holder);
  if (decl) return decl[1].email !== undefined && lc(decl[1].email) !== lc(address) ? { gives: 'update', key: decl[0] } : { gives: 'none' };
  const protectedUser = e.policy.protected_users.some((p) => lc(p) === lc(holder.key));
  return e.policy.prune.includes(e.pruneKey) && !protectedUser ? { gives: 'delete', key: holder.key } : { gives: 'none' };
}

/**
 * The other user whose primary address this is now, if any: the first read with it. Looked up in the users
 * by lower-case address, made when first asked (a scan of every user per new user was quadratic).
 */
function holderOf(e: EmailFacts, address: string, self: CurrentObject | undefined): CurrentObject | undefined {
  const facts = e.facts;
  if (!facts.byLowerEmail) {
    facts.byLowerEmail = new Map();
    for (const u of facts.users) {
      const holders = facts.byLowerEmail.get(lc(u.fields.email));
      if (holders) holders.push(u);
      else facts.byLowerEmail.set(lc(u.fields.email), [u]);
    }
  }
  return facts.byLowerEmail.get(lc(address))?.find((u) => u !== self);
}

/** The e-mail a declared user takes, when it is not its own now. */
function taken(desired: DesiredObject, current: CurrentObject | undefined): string | undefined {
  const want = desired.fields.email;
  return want !== undefined && want !== '' && lc(want) !== lc(current?.fields.email) ? String(want) : undefined;
}

/** Why a declared user cannot take the address it asks for in this plan. */
export function emailMoveRefusals(desired: DesiredObject, current: CurrentObject | undefined, e: EmailFacts): Problem[] {
  const address = taken(desired, current);
  const holder = address === undefined ? undefined : holderOf(e, address, current);
  if (!address || !holder) return [];
  const path = [...desired.path, 'email'];
  const fate = fateOf(e, holder, address);
  if (fate.gives === 'none')
    return [{ path, message: `${address} is the e-mail of user "${holder.key}" on the server, and this configuration leaves it there: give "${holder.key}" another email first, or choose another address` }];
  const server = e.server;
  if (fate.gives === 'update' && server && serverHas(server, KEEPS_OLD_EMAIL) && !serverHas(server, ADMIN_USER_EMAILS))
    return [
      {
        path,
        message: `${address} is the e-mail of user "${holder.key}" now, and ${describeServer(server)} keeps a user's old address as a secondary one when its e-mail changes (Gitea 1.25 deletes it), so "${holder.key}" would still hold it and the server would refuse it here ("e-mail already in use"): apply the change of "${holder.key}" first, delete ${address} from its addresses in the web UI (the user's Settings → Account → Manage Email Addresses), then plan again; or choose another address`,
      },
    ];
  return [];
}

/** The context values of a user change for an address that moves: what it waits for, what it deletes. */
export function emailShown(desired: DesiredObject, current: CurrentObject | undefined, e: EmailFacts): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const address = taken(desired, current);
  const holder = address === undefined ? undefined : holderOf(e, address, current);
  if (address && holder) {
    const fate = fateOf(e, holder, address);
    if (fate.gives !== 'none') out[EMAIL_AFTER] = fate.key;
  }
  // The giver: another declared user takes its present address, and the server would keep it.
  const present = current?.fields.email;
  const server = e.server;
  if (current && present && taken(desired, current) !== undefined && server && serverHas(server, KEEPS_OLD_EMAIL) && serverHas(server, ADMIN_USER_EMAILS)) {
    const takers = Object.entries(e.declared).filter(([name, u]) => name !== desired.key && lc(u.email) === lc(present));
    if (takers.length) out[OLD_EMAIL_DELETED] = present;
  }
  return out;
}
