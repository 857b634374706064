import type { Config, UserConfig } from '../../config/types.js';
import { apiPath } from '../../gitea/path.js';
import type { Change, Op } from '../../model/index.js';
import { asSet, bool, int, normalizeFields, only, set, str, text } from '../fields.js';
import { secretFromEnvironment } from '../secrets.js';
import { describeServer, serverHas, type Availability, type CurrentObject, type DesiredObject, type FieldSpec, type Kind, type KindContext, type Problem, type ScopeContext, type ServerInfo } from '../../model/index.js';
import { BADGES, badgeOps, keyOps, declaredUserMetaOf, readExtras, sshKeyIdentity, userMetaOf, wantedKeys, type DeclaredUserMeta, type KnownKey } from './extras.js';

const writeOnly = (spec: FieldSpec): FieldSpec => ({ ...spec, writeOnly: true });

const fields: FieldSpec[] = [
  str('email'),
  str('full_name'),
  str('login_name'),
  int('source_id'),
  str('visibility'),
  bool('restricted'),
  bool('admin'),
  bool('active'),
  bool('prohibit_login'),
  str('website'),
  str('location'),
  text('description'),
  // Never returned by the server (`services/convert/user.go`): sent, never compared.
  writeOnly(int('max_repo_creation')),
  writeOnly(bool('allow_create_organization')),
  writeOnly(bool('allow_git_hook')),
  writeOnly(bool('allow_import_local')),
  writeOnly(bool('must_change_password')),
  { name: 'password', type: 'scalar', writeOnly: true, sensitive: true },
  // Read per user, only when the config names them.
  only(BADGES, set('badges')),
  set('ssh_keys'),
];

/** What POST /admin/users takes (CreateUserOption); the rest needs a PATCH after the create. */
const CREATE_FIELDS = ['email', 'full_name', 'login_name', 'source_id', 'visibility', 'restricted', 'must_change_password', 'password'];
/** What PATCH /admin/users/{username} takes (EditUserOption). */
const EDIT_FIELDS = new Set([
  'email', 'full_name', 'login_name', 'source_id', 'visibility', 'restricted', 'admin', 'active', 'prohibit_login', 'website', 'location', 'description',
  'max_repo_creation', 'allow_create_organization', 'allow_git_hook', 'allow_import_local', 'must_change_password', 'password',
]);
/** Values a new user already has: a create does not PATCH them. */
const CREATED_WITH: Record<string, unknown> = { admin: false, active: true, prohibit_login: false, website: '', location: '', description: '' };

/**
 * Releases whose rename refuses a user of an external login source (`ErrUserIsNotLocal`, which the
 * handler does not map: a 500): every Gitea; Forgejo until 13 lets an administrator rename one.
 */
const RENAME_NEEDS_LOCAL_USER: Availability = { gitea: {}, forgejo: { until: '12' } };
/** Forgejo reads the visibility of a user edit with `optional.FromNonDefault`, and public is the zero value: "public" is dropped. */
const PUBLIC_DROPPED: Availability = { forgejo: {} };

/** What this server's API cannot do to an existing user, by the config path that asks for it. */
function serverRefusals(desired: DesiredObject, current: CurrentObject, server: ServerInfo): Problem[] {
  const problems: Problem[] = [];
  const sourceId = Number(current.fields.source_id ?? 0);
  if (current.key !== desired.key && sourceId !== 0 && serverHas(server, RENAME_NEEDS_LOCAL_USER))
    problems.push({
      path: [...desired.path, 'previously'],
      message: `user "${current.key}" signs in through an external login source (source_id ${sourceId}), and ${describeServer(server)} cannot rename such a user (the server fails with 500 "user is not local type"): make it a local user first (Site Administration → User Accounts → Edit → Authentication Source), rename it, then set its source again; or remove "${current.key}" from previously`,
    });
  if (desired.fields.visibility === 'public' && current.fields.visibility !== 'public' && serverHas(server, PUBLIC_DROPPED))
    problems.push({
      path: [...desired.path, 'visibility'],
      message: `${describeServer(server)} cannot make a user public through its API (PATCH /admin/users/{username} drops visibility "public"): change it in the web UI (Site Administration → User Accounts → Edit, or the user's own Settings → Privacy), or remove visibility from the config`,
    });
  return problems;
}

/** What the user read learnt for the guards: the token's own user and every user. */
interface UserFacts {
  self: string;
  users: CurrentObject[];
  /** The users by lower-case name, made when first asked (a new user's name checked against every other). */
  byLowerName?: Map<string, CurrentObject>;
}
const factsOf = new WeakMap<ScopeContext, UserFacts>();

const lc = (s: string) => s.toLowerCase();

/** The first user read whose name is `name` but for case (user names are case-insensitive). */
function userNamed(facts: UserFacts | undefined, name: string): CurrentObject | undefined {
  if (!facts) return undefined;
  if (!facts.byLowerName) {
    facts.byLowerName = new Map();
    for (const u of facts.users) if (!facts.byLowerName.has(lc(u.key))) facts.byLowerName.set(lc(u.key), u);
  }
  return facts.byLowerName.get(lc(name));
}

/** Context values of a user change: its purge (delete) and the keys as declared (their text is not in ssh_keys). */
const PURGE = 'purge';
const DECLARED_KEYS = 'ssh_keys_declared';

const isSelf = (name: string, ctx: ScopeContext) => {
  const self = factsOf.get(ctx)?.self;
  return Boolean(self) && lc(self!) === lc(name);
};

/** Why a user must never be deleted, demoted or deactivated (protected_users, the token's own user). */
function protectedBecause(name: string, ctx: ScopeContext): string | undefined {
  if (ctx.policy.protected_users.some((p) => lc(p) === lc(name))) return 'it is listed in policy.protected_users';
  if (isSelf(name, ctx)) return "it is the token's own user";
  return undefined;
}

/** Whether no other active site administrator is left, given which users survive as administrators. */
function isLastAdmin(name: string, ctx: ScopeContext, survivesAsAdmin: (u: CurrentObject) => boolean): boolean {
  const facts = factsOf.get(ctx);
  if (!facts) return false;
  return !facts.users.some((u) => u.key !== name && u.fields.admin === true && u.fields.active !== false && survivesAsAdmin(u));
}

const survivorsOf = new WeakMap<ScopeContext, (u: CurrentObject) => boolean>();

/** At plan time: who stays an administrator, as the config declares users (built once per plan: it is asked per user). */
function survivorsByConfig(ctx: ScopeContext): (u: CurrentObject) => boolean {
  let survivors = survivorsOf.get(ctx);
  if (!survivors) survivorsOf.set(ctx, (survivors = buildSurvivorsByConfig(ctx)));
  return survivors;
}

function buildSurvivorsByConfig(ctx: ScopeContext): (u: CurrentObject) => boolean {
  const config: Config | undefined = (ctx as Partial<KindContext>).loaded?.config;
  const declared = config?.users ?? {};
  const renamedTo = new Map<string, UserConfig>();
  for (const u of Object.values(declared)) for (const old of u.previously ?? []) renamedTo.set(old, u);
  const pruning = ctx.policy.prune.includes('users');
  return (u) => {
    const decl = Object.hasOwn(declared, u.key) ? declared[u.key] : renamedTo.get(u.key);
    if (decl) return decl.admin !== false && decl.active !== false;
    return !pruning || protectedBecause(u.key, ctx) !== undefined;
  };
}

/** At apply time (and as the planner's second net): who stays an administrator, as the plan's changes leave them. */
function survivorsByPlan(plan: Change[]): (u: CurrentObject) => boolean {
  const users = plan.filter((c) => c.kind === 'user');
  return (u) =>
    !users.some((c) => {
      const key = c.action === 'rename' ? c.from : c.key;
      if (key !== u.key) return false;
      const after = (f: string) => c.fields.find((x) => x.path === f && !x.context)?.after;
      return c.action === 'delete' || after('admin') === false || after('active') === false || after('prohibit_login') === true;
    });
}

function guard(name: string, ctx: ScopeContext, admin: boolean, survivors: (u: CurrentObject) => boolean): string | undefined {
  return protectedBecause(name, ctx) ?? (admin && isLastAdmin(name, ctx, survivors) ? 'it is the last site administrator' : undefined);
}

/**
 * The guarded edits of a user (field, planned value → what it would do), as one table for plan and apply.
 * must_change_password on the token's own user locks forgeform (and the admin) out of the API.
 */
const GUARDED_EDITS: { field: string; value: unknown; what: string; selfOnly?: boolean; when?: (was: Record<string, unknown>) => boolean; adminMatters: (was: Record<string, unknown>) => boolean }[] = [
  { field: 'admin', value: false, what: 'demotes', when: (was) => was.admin === true, adminMatters: () => true },
  { field: 'active', value: false, what: 'deactivates', when: (was) => was.active !== false, adminMatters: (was) => was.admin === true },
  { field: 'prohibit_login', value: true, what: 'prohibits sign-in for', when: (was) => was.prohibit_login !== true, adminMatters: (was) => was.admin === true },
  { field: 'must_change_password', value: true, what: 'sets must_change_password on', selfOnly: true, adminMatters: () => false },
];

/**
 * Whether a guard may ask who the token's own user is. The token reads admin/users, so its user is
 * a site administrator: only a deletion (users pruned) or a guarded edit of a current administrator
 * can touch it. Any other plan spares GET /user (issue 12: plan requests = the floor).
 */
function selfMatters(ctx: ScopeContext, desired: DesiredObject[] | undefined, users: CurrentObject[]): boolean {
  if (ctx.policy.prune.includes('users')) return true;
  const admins = new Set(users.filter((u) => u.fields.admin === true).map((u) => lc(u.key)));
  return (desired ?? []).some(
    (d) => [d.key, ...(d.previously ?? [])].some((k) => admins.has(lc(k))) && GUARDED_EDITS.some((g) => d.fields[g.field] === g.value),
  );
}

function editRefusals(name: string, want: Record<string, unknown>, was: Record<string, unknown>, ctx: ScopeContext, survivors: (u: CurrentObject) => boolean): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  for (const g of GUARDED_EDITS) {
    if (!(g.field in want) || want[g.field] !== g.value || (g.when && !g.when(was))) continue;
    const why = g.selfOnly ? (isSelf(name, ctx) ? "it is the token's own user: forgeform could not use the API any more" : undefined) : guard(name, ctx, g.adminMatters(was), survivors);
    if (why) out.push({ field: g.field, message: `forgeform never ${g.what} this user: ${why}` });
  }
  return out;
}

/** The body of PATCH /admin/users/{name}: what Gitea requires in every edit, then the fields to send. */
function editBody(name: string, want: Record<string, unknown>, current: CurrentObject | undefined, send: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = {
    // Required (binding) and always written by Gitea: keep the current value unless the config manages it.
    login_name: 'login_name' in want ? want.login_name : (current?.fields.login_name) || name,
    // Required by the newest API description; 0 means "unchanged".
    source_id: 'source_id' in want ? want.source_id : ((current?.fields.source_id) ?? 0),
  };
  for (const f of send) body[f] = want[f];
  return body;
}

export const userKind: Kind = {
  name: 'user',
  uniqueNames: true,
  title: 'user',
  pruneKey: 'users',
  configKey: 'users',
  scopeType: 'server',
  actions: ['create', 'update', 'rename', 'delete'],
  fields,
  context: [PURGE, DECLARED_KEYS],
  target: { type: 'user', placeholder: 'NAME' },
  // Read only when the config names them; apply's stale-plan check reads without the config.
  guardedByServer: ['badges', 'ssh_keys'],

  async desired(scopeConfig, _scope, ctx) {
    const users = (scopeConfig as Config).users;
    if (!users) return undefined;
    const problems: Problem[] = [];
    const objects: DesiredObject[] = [];
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

  async read(_scope, ctx, desired) {
    const { client } = ctx;
    const raw = await client.list<unknown>('admin/users', { object: 'users' });
    const users = raw.map((r) => this.fromServer(r));
    const byKey = new Map(users.map((u) => [u.key, u]));
    const me = selfMatters(ctx, desired, users) ? await ctx.cachedGet<{ login?: string } | undefined>('user', { object: "the token's own user" }) : undefined;
    factsOf.set(ctx, { self: String(me?.login ?? ''), users });
    const extras: Promise<void>[] = [];
    for (const d of desired ?? []) {
      const user = byKey.get(d.key) ?? (d.previously ?? []).map((p) => byKey.get(p)).find((u) => u !== undefined);
      const wants = { badges: 'badges' in d.fields, keys: 'ssh_keys' in d.fields };
      if (user && (wants.badges || wants.keys)) extras.push(readExtras(client, user, wants, ctx.server));
    }
    // export: one request per user and detail, which its help announces.
    if (ctx.options.readEverything) for (const u of users) extras.push(readExtras(client, u, { badges: true, keys: true }, ctx.server));
    await Promise.all(extras);
    return users;
  },

  compare(field) {
    // Gitea compares e-mails case-insensitively: a change of case only is a no-op there.
    if (field === 'email') return (want, have) => String(want ?? '').toLowerCase() === String(have ?? '').toLowerCase();
    return undefined;
  },

  check(desired, current, _scope, ctx) {
    const problems: Problem[] = [];
    const f = desired.fields;
    if (!current) {
      const clash = userNamed(factsOf.get(ctx), desired.key);
      if (clash) return [{ path: desired.path, message: `the server has a user "${clash.key}" and user names are case-insensitive: write "${clash.key}"` }];
      if (!f.email) problems.push({ path: desired.path, message: 'a new user needs email' });
      if (!('password' in f) && !f.source_id)
        problems.push({ path: desired.path, message: 'a new local user needs a password of at least 8 characters (password: "${NAME}", from an environment variable)' });
      return problems;
    }
    for (const r of editRefusals(current.key, f, current.fields, ctx, survivorsByConfig(ctx))) problems.push({ path: [...desired.path, r.field], message: r.message });
    if (ctx.server) problems.push(...serverRefusals(desired, current, ctx.server));
    return problems;
  },

  keep(current, _scope, ctx) {
    return guard(current.key, ctx, current.fields.admin === true, survivorsByConfig(ctx));
  },

  guard(change, current, ctx, plan) {
    if (!current) return undefined;
    const survivors = survivorsByPlan(plan);
    if (change.action === 'delete') {
      const why = guard(current.key, ctx, current.fields.admin === true, survivors);
      return why ? `forgeform never deletes this user: ${why}` : undefined;
    }
    const want = Object.fromEntries(change.fields.filter((f) => !f.context).map((f) => [f.path, f.after]));
    return editRefusals(current.key, want, current.fields, ctx, survivors)[0]?.message;
  },

  shown({ action, desired, changed, ctx }) {
    if (action === 'delete') return ctx.policy.purge_users ? { [PURGE]: true } : undefined;
    const keys = declaredUserMetaOf(desired).sshKeys;
    if (keys && (action === 'create' || changed.includes('ssh_keys'))) return { [DECLARED_KEYS]: keys.map((k) => ({ title: k.title, key: k.key })) };
    return undefined;
  },

  ops({ action, desired, current, changed, shown }) {
    if (action === 'delete') {
      const purge = shown?.[PURGE] === true;
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
    const declared = (shown?.[DECLARED_KEYS] as { title: string; key: string }[] | undefined) ?? [];
    const wantedKeys: KnownKey[] = declared.map((k) => ({ ...k, identity: sshKeyIdentity(k.key) }));
    const ops: Op[] = [];
    if (action === 'create') {
      const body: Record<string, unknown> = { username: name };
      for (const f of CREATE_FIELDS) if (f in want) body[f] = want[f];
      ops.push({ method: 'POST', path: 'admin/users', body });
      if ('badges' in want) ops.push(...badgeOps(name, want.badges, []));
      ops.push(...keyOps(name, wantedKeys, []));
      const later = Object.keys(want).filter((f) => EDIT_FIELDS.has(f) && !CREATE_FIELDS.includes(f) && !(f in CREATED_WITH && CREATED_WITH[f] === want[f]));
      // Last, so that apply compares the server's answer (the user) with what the plan wanted.
      if (later.length) ops.push({ method: 'PATCH', path: userPath, body: editBody(name, want, undefined, later), reason: 'Gitea cannot set these when it creates a user' });
      return ops;
    }
    const cur = current;
    if (action === 'rename') ops.push({ method: 'POST', path: apiPath('admin', 'users', cur.key, 'rename'), body: { new_username: name } });
    if (changed.includes('badges')) ops.push(...badgeOps(name, want.badges, cur.fields.badges));
    if (changed.includes('ssh_keys')) ops.push(...keyOps(name, wantedKeys, userMetaOf(cur).sshKeys ?? []));
    const send = changed.filter((f) => EDIT_FIELDS.has(f));
    if (send.length) ops.push({ method: 'PATCH', path: userPath, body: editBody(name, want, cur, send) });
    return ops;
  },

  async annotate(change) {
    const notes: string[] = [];
    if (change.action === 'create' && !change.fields.some((f) => f.path === 'must_change_password'))
      notes.push('must_change_password is not written: Gitea creates the user with must_change_password: true, so it cannot use the API until it changes its password');
    if (change.action === 'delete' && change.fields.some((f) => f.context && f.path === PURGE && f.after === true))
      notes.push('purged (policy.purge_users): its repositories, packages and the organisations it alone owns are deleted too');
    for (const op of change.ops) if (op.reason && /SSH key|badges/.test(op.reason)) notes.push(op.reason);
    return notes.length ? { notes } : undefined;
  },

  fromServer(raw) {
    const r = raw as Record<string, unknown>;
    const values: Record<string, unknown> = { ...r };
    if ('is_admin' in r) values.admin = r.is_admin;
    const readable = fields.filter((f) => !f.writeOnly && f.name !== 'badges' && f.name !== 'ssh_keys');
    return { key: String(r.login ?? r.username), id: Number(r.id), fields: normalizeFields(readable, values, true) };
  },

  toConfig(current: CurrentObject) {
    const f = current.fields;
    const out: Record<string, unknown> = { email: f.email, full_name: f.full_name };
    if (f.source_id) Object.assign(out, { source_id: f.source_id, login_name: f.login_name });
    Object.assign(out, { visibility: f.visibility, admin: f.admin, restricted: f.restricted, active: f.active, prohibit_login: f.prohibit_login });
    for (const k of ['website', 'location', 'description']) if (f[k]) out[k] = f[k];
    // Only when read (export reads them), and only when there are some: an empty list would manage them.
    if (Array.isArray(f.badges) && f.badges.length) out.badges = f.badges;
    const keys = userMetaOf(current).sshKeys;
    if (keys?.length) out.ssh_keys = keys.map((k) => ({ title: k.title, key: k.key }));
    return out;
  },
};
