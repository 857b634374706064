import type { Config } from '../../config/types.js';
import type { Availability, FieldSpec, KindTypes, Reading } from '../../model/index.js';
import { bool, int, normalizeFields, only, set, str, text, shapeOfFields } from '../fields.js';
import { BADGES, readExtras } from './extras.js';
import type { UserFacts, UserRun } from './guards.js';
import { isUnfinished, SET_BY_FOLLOW_UP } from './unfinished.js';

const writeOnly = (spec: FieldSpec): FieldSpec => ({ ...spec, writeOnly: true });

/**
 * Releases whose `User` answer has `source_id`: not Gitea 1.21 nor Forgejo 7 (`modules/structs/user.go`
 * v1.21.11 l.3–41, v7.0.16 l.3–43 have no SourceID; v1.22.6 l.10 and v11.0.15 l.10 have it). There a
 * declared source_id could never be compared with the server's.
 */
export const USER_SOURCE_ID: Availability = { gitea: { since: '1.22' }, forgejo: { since: '8' } };
/** `pronouns`: Forgejo's own (v7.0.16 `modules/structs/user.go` l.45, `admin_user.go` l.44 `MaxSize(50)`). */
export const PRONOUNS: Availability = { forgejo: {} };

export const fields: FieldSpec[] = [
  str('email'),
  str('full_name'),
  str('login_name'),
  { ...only(USER_SOURCE_ID, int('source_id')), unavailableHint: "the server does not report a user's login source, so forgeform could never compare it: set it in the web UI (Site Administration → User Accounts → Edit), or remove source_id" },
  str('visibility'),
  bool('restricted'),
  bool('admin'),
  bool('active'),
  bool('prohibit_login'),
  str('website'),
  str('location'),
  text('description'),
  only(PRONOUNS, str('pronouns')),
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

/** A user as answered (modules/structs/user.go): `is_admin` stands for the field `admin`. */
export const shape = shapeOfFields(fields, { id: 'id', login: 'string', is_admin: 'boolean?' });

/** A user as the server answers it (its shape checked): the fields by their names, `is_admin` for admin. */
type ServerUser = Record<string, unknown> & { login?: string; username?: string; id?: number; is_admin?: boolean | null };

/** What the user kind is typed by: the whole config (users are server-wide), a user as answered, the facts its guards judge with, its state per run. */
export type UserTypes = KindTypes<Config, ServerUser, UserFacts, UserRun>;

function fromServer(r: ServerUser) {
  const values: Record<string, unknown> = { ...r };
  if ('is_admin' in r) values.admin = r.is_admin;
  const readable = fields.filter((f) => !f.writeOnly && f.name !== 'badges' && f.name !== 'ssh_keys');
  const out = normalizeFields(readable, values, true);
  // Created, but its follow-up PATCH never arrived (src/kinds/user/unfinished.ts): what it sets is unknown.
  if (isUnfinished(out)) for (const f of SET_BY_FOLLOW_UP) out[f] = null;
  return { key: String(r.login ?? r.username), id: Number(r.id), fields: out };
}

export const reading = {
  fields,
  shape,
  // Read only when the config names them; apply's stale-plan check reads without the config.
  guardedByServer: ['badges', 'ssh_keys'],

  async read({ ctx, desired }) {
    const { client } = ctx;
    const raw = await client.list<ServerUser>('admin/users', { object: 'users', shape });
    const users = raw.map(fromServer);
    const byKey = new Map(users.map((u) => [u.key, u]));
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

  fromServer,

  compare(field) {
    // Gitea compares e-mails case-insensitively: a change of case only is a no-op there.
    if (field === 'email') return (want, have) => String(want ?? '').toLowerCase() === String(have ?? '').toLowerCase();
    return undefined;
  },
} satisfies Reading<UserTypes>;
