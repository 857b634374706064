import { describeServer, serverHas, type Availability, type CurrentObject, type DesiredObject, type Planning, type PlanRequest, type Problem, type Safety, type ServerInfo, type Writing } from '../../model/index.js';
import { PUBLIC_DROPPED } from '../../releases/availability.js';
import { asSet, normalizeFields } from '../fields.js';
import { secretFromEnvironment } from '../secrets.js';
import { wantedKeys } from './extras.js';
import { editRefusals, guard, guardFacts, selfMatters, survivorsByConfig, survivorsByPlan, userNamed } from './guards.js';
import { PURGE } from './ops.js';
import { emailFacts, emailMoveRefusals } from './emails.js';
import { fields, USER_SOURCE_ID } from './read.js';
import type { DeclaredUser, DeclaredUserMeta, UserObject, UserRun, UserTypes } from './types.js';
import { isUnfinished } from './unfinished.js';
import { ownersOfRepositories } from './owned.js';
import { emailProblem } from '../email.js';
import { unknownBadges } from './badges.js';

/**
 * Releases whose rename refuses a user of an external login source (`ErrUserIsNotLocal`, which the
 * handler does not map: a 500): every Gitea; Forgejo until 13 lets an administrator rename one.
 */
const RENAME_NEEDS_LOCAL_USER: Availability = { gitea: {}, forgejo: { until: '12' } };

/**
 * The user declared before `key` with the same e-mail (case-insensitive): the second of two is the error.
 * Looked up in an index of the declared users built once per run (a scan of the users before each one
 * was quadratic: 7% of the benchmark plan's CPU with 500 users).
 */
function earlierWithEmail(run: UserRun, users: Record<string, { email?: unknown }> | undefined, key: string, email: string): string | undefined {
  if (!users) return undefined;
  let index = run.emails;
  if (index?.of !== users) {
    index = { of: users, first: new Map(), place: new Map() };
    for (const [i, [name, u]] of Object.entries(users).entries()) {
      index.place.set(name, i);
      if (typeof u?.email === 'string' && !index.first.has(u.email.toLowerCase())) index.first.set(u.email.toLowerCase(), name);
    }
    run.emails = index;
  }
  const first = index.first.get(email.toLowerCase());
  // The first user of that address, when it comes before `key` (a user not declared comes after every one).
  return first !== undefined && (index.place.get(first) ?? Infinity) < (index.place.get(key) ?? Infinity) ? first : undefined;
}

/** What this server's API cannot do to an existing user, by the config path that asks for it. */
/**
 * How the server says that a user signs in through an external login source: its source_id, or, on a
 * release that does not report one (USER_SOURCE_ID), a login name other than its own name — an external
 * user's login name is what it signs in with at the source (`uid=…`, an e-mail); a local user's is empty,
 * or its name where an edit wrote it (forgeform's edits do).
 */
function externalSource(current: CurrentObject, server: ServerInfo): string | undefined {
  const sourceId = Number(current.fields.source_id ?? 0);
  if (sourceId !== 0) return `source_id ${sourceId}`;
  const login = String(current.fields.login_name ?? '');
  if (!serverHas(server, USER_SOURCE_ID) && login !== '' && !isUnfinished(current.fields) && login.toLowerCase() !== current.key.toLowerCase()) return `login name "${login}"`;
  return undefined;
}

function serverRefusals(desired: DesiredObject, current: CurrentObject, server: ServerInfo): Problem[] {
  const problems: Problem[] = [];
  const external = current.key !== desired.key && serverHas(server, RENAME_NEEDS_LOCAL_USER) ? externalSource(current, server) : undefined;
  if (external)
    problems.push({
      path: [...desired.path, 'previously'],
      message: `user "${current.key}" signs in through an external login source (${external}), and ${describeServer(server)} cannot rename such a user (the server fails with 500 "user is not local type"): make it a local user first (Site Administration → User Accounts → Edit → Authentication Source), rename it, then set its source again; or remove "${current.key}" from previously`,
    });
  if (desired.fields.visibility === 'public' && current.fields.visibility !== 'public' && serverHas(server, PUBLIC_DROPPED))
    problems.push({
      path: [...desired.path, 'visibility'],
      message: `${describeServer(server)} cannot make a user public through its API (PATCH /admin/users/{username} drops visibility "public"): change it in the web UI (Site Administration → User Accounts → Edit, or the user's own Settings → Privacy), or remove visibility from the config`,
    });
  return problems;
}

/** Who stays an administrator as the config declares users: built once per run (it is asked per user). */
function survivors(req: PlanRequest<UserTypes>): (u: CurrentObject) => boolean {
  return (req.run.survivors ??= survivorsByConfig(req.config.users ?? {}, guardFacts(req)));
}

export const preparing = {
  /**
   * Every user (the memoised read: --target narrows what is planned, not who is an administrator) and,
   * where a guard may need it, the token's own user: what check, shown, keep, guard and annotate judge
   * with, at plan time and again at apply.
   */
  async prepare(req) {
    const { ctx, self, scope, desired, current, run } = req;
    const users = await ctx.currentOf(self, scope);
    const me = selfMatters(ctx.policy.prune.includes(self.pruneKey), desired, users) ? await ctx.cachedGet<{ login?: string } | undefined>('user', { object: "the token's own user", shape: { login: 'string' } }) : undefined;
    run.facts = { self: String(me?.login ?? ''), users };
    if (req.phase === 'plan') {
      const declared = new Set(desired.flatMap((d) => [d.key, ...(d.previously ?? [])]).map((n) => n.toLowerCase()));
      const undeclared = current.filter((u) => !declared.has(u.key.toLowerCase()));
      run.facts.undeletable = await ownersOfRepositories(ctx, ctx.policy, self.pruneKey, undeclared, run.facts.self);
    }
    return run.facts;
  },
} satisfies Pick<Writing<UserTypes>, 'prepare'>;

/**
 * A user's SSH key titles are unique: AddPublicKey answers 422 "Key title has been used" for a title the
 * user has (models/asymkey/ssh_key.go: Gitea v1.21.11 l.114, v1.25.4 l.102, Forgejo v7.0.16 and v15.0.3 l.114,
 * `Where("owner_id = ? AND name = ?")`).
 */
const sameTitle = (title: string, other: string) => `title "${title}" is also the title of ${other}, and the server gives one title to one key of a user (422 "Key title has been used"): give each key its own title`;

/** Keys to add whose title a key the user keeps already has (keys are removed before others are added). */
function keyTitleClashes(desired: DeclaredUser, current: UserObject): Problem[] {
  const wanted = desired.meta?.sshKeys;
  const had = current.meta?.sshKeys ?? [];
  if (!wanted) return [];
  const ids = new Set(wanted.map((k) => k.identity));
  const kept = new Map(had.filter((k) => ids.has(k.identity)).map((k) => [k.title, k]));
  const old = new Set(had.map((k) => k.identity));
  return wanted.flatMap((k, i) => {
    const clash = old.has(k.identity) ? undefined : kept.get(k.title);
    return clash ? [{ path: [...desired.path, 'ssh_keys', i, 'title'], message: sameTitle(k.title, `the key ${clash.identity} the user keeps`) }] : [];
  });
}

export const planning = {
  async desired({ entry, ctx }) {
    const users = entry?.users;
    if (!users) return undefined;
    const problems: Problem[] = [];
    const objects: DeclaredUser[] = [];
    for (const [name, u] of Object.entries(users)) {
      const path = ['users', name];
      const { previously, ssh_keys, ...rest } = u;
      const f = normalizeFields(fields, rest, true);
      const meta: DeclaredUserMeta = {};
      if (ssh_keys) {
        const keys = wantedKeys(ssh_keys);
        keys.forEach((k, i) => {
          const first = keys.findIndex((o) => o.identity === k.identity);
          if (first < i) problems.push({ path: [...path, 'ssh_keys', i], message: `ssh_keys[${i}] is the same key as ssh_keys[${first}] (${k.identity})` });
          const titled = keys.findIndex((o) => o.title === k.title);
          if (first === i && titled < i) problems.push({ path: [...path, 'ssh_keys', i, 'title'], message: sameTitle(k.title, `ssh_keys[${titled}]`) });
        });
        f.ssh_keys = asSet(keys.map((k) => k.identity));
        meta.sshKeys = keys;
      }
      if (u.password !== undefined) {
        const { secret, problems: p } = secretFromEnvironment(u.password, [...path, 'password'], 'password', ctx);
        problems.push(...p);
        if (secret) f.password = secret;
      }
      objects.push({ key: name, fields: f, ...(meta.sshKeys ? { meta } : {}), ...(previously ? { previously } : {}), path });
    }
    return { objects, problems };
  },

  check(req) {
    const { desired, current, ctx, prepared } = req;
    const problems: Problem[] = [];
    const f = desired.fields;
    const badEmail = typeof f.email === 'string' && f.email !== '' ? emailProblem(f.email) : undefined;
    if (badEmail) return [{ path: [...desired.path, 'email'], message: badEmail }];
    const twin = typeof f.email === 'string' && f.email !== '' ? earlierWithEmail(req.run, req.config.users, desired.key, f.email) : undefined;
    if (twin) return [{ path: [...desired.path, 'email'], message: `email: "${String(f.email)}" is also the e-mail of user "${twin}" in this configuration (Gitea gives one address to one account, compared case-insensitively)` }];
    problems.push(...unknownBadges(desired, req.config.users?.[desired.key]?.badges, prepared, ctx.policy.badges ?? [], ctx.server));
    if (!current) {
      const clash = userNamed(prepared, desired.key);
      if (clash) return [{ path: desired.path, message: `the server has a user "${clash.key}" and user names are case-insensitive: write "${clash.key}"` }];
      if (!f.email) problems.push({ path: desired.path, message: 'a new user needs email' });
      if (!('password' in f) && !f.source_id)
        problems.push({ path: desired.path, message: 'a new local user needs a password of at least 8 characters (password: "${NAME}", from an environment variable)' });
      return [...problems, ...emailMoveRefusals(desired, current, emailFacts(req, prepared))];
    }
    problems.push(...emailMoveRefusals(desired, current, emailFacts(req, prepared)), ...keyTitleClashes(desired, current));
    for (const r of editRefusals(current.key, f, current.fields, guardFacts(req), survivors(req))) problems.push({ path: [...desired.path, r.field], message: r.message });
    if (ctx.server) problems.push(...serverRefusals(desired, current, ctx.server));
    return problems;
  },

  keep(req) {
    return guard(req.current.key, guardFacts(req), req.current.fields.admin === true, survivors(req)) ?? req.run.facts?.undeletable?.get(req.current.key.toLowerCase());
  },
} satisfies Planning<UserTypes>;

export const safety = {
  guard(req) {
    const { change, intent, current, plan, self, run } = req;
    if (!current) return undefined;
    // Derived once per set of changes judged (guard is asked per change: deriving it per change was quadratic).
    const judged = run.judged?.plan === plan && run.judged.length === plan.length ? run.judged : (run.judged = { plan, length: plan.length, survivors: survivorsByPlan(plan, self.name) });
    const survivors = judged.survivors;
    if (change.action === 'delete') {
      const why = guard(current.key, guardFacts(req), current.fields.admin === true, survivors);
      return why ? `forgeform never deletes this user: ${why}` : undefined;
    }
    return editRefusals(current.key, intent.fields, current.fields, guardFacts(req), survivors)[0]?.message;
  },

  async annotate({ change, intent, run }) {
    const notes: string[] = [];
    const current = change.action === 'update' ? userNamed(run.facts, change.key) : undefined;
    if (current && isUnfinished(current.fields))
      notes.push('unfinished: forgeform created this user, but the request that sets what a create cannot set never reached the server; this apply sends it');
    if (change.action === 'create' && !('must_change_password' in intent.fields))
      notes.push('must_change_password is not written: Gitea creates the user with must_change_password: true, so it cannot use the API until it changes its password');
    if (change.action === 'delete' && change.fields.some((f) => f.context && f.path === PURGE && f.after === true))
      notes.push('purged (policy.purge_users): its repositories, packages and the organisations it alone owns are deleted too');
    for (const op of change.ops) if (op.reason && /SSH key|badges/.test(op.reason)) notes.push(op.reason);
    return notes.length ? { notes } : undefined;
  },
} satisfies Safety<UserTypes>;
