import { bool, field, int, objectSchema, only, serverFields, set, str, text, type ConfigDoc, formerNames } from '../fields.js';
import type { Availability, EntrySpec, FieldSpec, SchemaFragment } from '../../model/index.js';
import { BADGES } from './extras.js';

const writeOnly = (spec: FieldSpec): FieldSpec => ({ ...spec, writeOnly: true });

/**
 * Releases whose `User` answer has `source_id`: not Gitea 1.21 nor Forgejo 7 (`modules/structs/user.go`
 * v1.21.11 l.3–41, v7.0.16 l.3–43 have no SourceID; v1.22.6 l.10, Forgejo v8.0.0 l.23 (filled by services/convert/user.go
 * l.80) and v11.0.15 l.10 have it). There a
 * declared source_id could never be compared with the server's.
 */
export const USER_SOURCE_ID: Availability = { gitea: { since: '1.22' }, forgejo: { since: '8' } };
/** `pronouns`: Forgejo's own (v7.0.16 `modules/structs/user.go` l.45, `admin_user.go` l.44 `MaxSize(50)`). */
export const PRONOUNS: Availability = { forgejo: {} };

/** A user's config: its fields (the write-only ones sent, never compared), `previously`, badges and keys. */
export const entries: EntrySpec[] = [
  str('email', {
    title: 'E-mail',
    description: 'Primary e-mail address. Compared case-insensitively, like Gitea (a change of case only is not a change). Needed to create the user.',
    minLength: 1,
  }),
  str('full_name', {
    title: 'Full name',
    description: 'Display name.',
  }),
  str('login_name', {
    title: 'Login name',
    description: 'Name the user signs in with at an external authentication source (source_id). Gitea overwrites it with every edit: forgeform sends the current value unless this is written.',
    minLength: 1,
  }),
  { ...only(USER_SOURCE_ID, int('source_id', {
    title: 'Authentication source',
    description: 'Id of the authentication source (0: local user, signing in with a password). Gitea 1.22+ and Forgejo 8+: older releases do not report it, so it cannot be compared there.',
    minimum: 0,
  })), unavailableHint: 'the server does not report a user\'s login source, so forgeform could never compare it: set it in the web UI (Site Administration → User Accounts → Edit), or remove source_id' },
  str('visibility', {
    title: 'Visibility',
    description: 'public: everyone; limited: signed-in users; private: the user and administrators.',
    enum: ['public', 'limited', 'private'],
  }),
  bool('restricted', {
    title: 'Restricted',
    description: 'A restricted user sees only the organisations and repositories it is explicitly added to.',
  }),
  bool('admin', {
    title: 'Site administrator',
    description: 'The user is a site administrator. Set after creation with a second request (Gitea cannot create an administrator directly). forgeform refuses to demote the token\'s own user, a protected user or the last site administrator.',
  }),
  bool('active', {
    title: 'Active',
    description: 'An inactive user cannot sign in. New users are active. forgeform refuses to deactivate the token\'s own user or a protected user.',
  }),
  bool('prohibit_login', {
    title: 'Prohibit sign-in',
    description: 'The user may not sign in (web, API or git). forgeform refuses to set it on the token\'s own user or a protected user.',
  }),
  str('website', {
    title: 'Website',
    description: 'An http(s) URL, or "" for none.',
  }),
  str('location', {
    title: 'Location',
    description: 'Where the user is.',
  }),
  text('description', {
    title: 'Description',
    description: 'The user\'s biography.',
  }),
  only(PRONOUNS, str('pronouns', {
    title: 'Pronouns',
    description: 'The user\'s pronouns, shown on the profile (Forgejo only; at most 50 characters).',
    maxLength: 50,
  })),
  // Never returned by the server (`services/convert/user.go`): sent, never compared.
  writeOnly(int('max_repo_creation', {
    title: 'Maximum repositories (write-only)',
    description: 'How many repositories the user may create (-1: the server\'s default). Write-only: Gitea never returns it, so forgeform cannot compare it. It is sent when the user is created, with any other edit of the user, and to every declared user with --sync-write-only.',
    minimum: -1,
  })),
  writeOnly(bool('allow_create_organization', {
    title: 'May create organisations (write-only)',
    description: 'Write-only: never returned by Gitea; sent when the user is created, with any other edit of the user, and with --sync-write-only.',
  })),
  writeOnly(bool('allow_git_hook', {
    title: 'May edit git hooks (write-only)',
    description: 'Write-only: never returned by Gitea; sent when the user is created, with any other edit of the user, and with --sync-write-only.',
  })),
  writeOnly(bool('allow_import_local', {
    title: 'May import local repositories (write-only)',
    description: 'Write-only: never returned by Gitea; sent when the user is created, with any other edit of the user, and with --sync-write-only.',
  })),
  writeOnly(bool('must_change_password', {
    title: 'Must change password (write-only)',
    description: 'The user must change its password before using the web UI or the API. Gitea\'s default for a user created through the API is true, so such a user cannot use the API at all until it changes the password: write false for accounts that must work at once. Write-only: never returned by Gitea; sent when the user is created, with any other edit of the user, and with --sync-write-only.',
    default: true,
  })),
  field({ name: 'password', type: 'scalar', writeOnly: true, sensitive: true }, {
    title: 'Initial password (write-only, secret)',
    description: 'Password of a new local user, at least 8 characters. Must come from an environment variable ("${ALICE_PASSWORD}"): it is never printed nor saved in a plan file. Sent only when the user is created, and again with --rotate-secrets.',
    type: 'string',
    minLength: 1,
  }),
  formerNames('Former user names: a user with one of these names is renamed (POST /admin/users/{old}/rename; it keeps its id, repositories and memberships) instead of a new user being created.'),
  // Read per user, only when the config names them.
  only(BADGES, set('badges', {
    title: 'Badges',
    description: 'Slugs of the badges the user has, as a set: missing ones are added, others removed. Badges are defined in Gitea\'s web admin only (there is no API to create them). Read with one request per user that has badges written. Gitea 1.22 and newer only: Forgejo has no badges.',
  })),
  set('ssh_keys', {
    title: 'SSH keys',
    description: 'The user\'s SSH public keys, as a set: keys missing on the server are added, other keys of the user are removed. A key is identified by its type and key material (the comment and the title do not count). Read with the user\'s key list, one per user that has ssh_keys written.',
    items: { $ref: '#/definitions/ssh_key' },
    uniqueItems: undefined,
  }),

];

export const fields = serverFields(entries);

/** The users' entries of `policy` (their meaning: policy.ts, guards.ts, ops.ts). */
const policy: Record<string, ConfigDoc> = {
  protected_users: {
    title: 'Protected users',
    description:
      "Users that are never deleted, demoted (admin: false), deactivated (active: false) or barred from signing in (prohibit_login: true). The token's own user and the last site administrator are always protected.",
    type: 'array',
    uniqueItems: true,
    items: { type: 'string', minLength: 1 },
  },
  purge_users: {
    title: 'Purge deleted users',
    description:
      'With users in prune: delete undeclared users with ?purge=true, which also deletes their repositories and packages, their organisation memberships and every organisation they alone own (not atomic: a failure can leave part of it done). Without it (the default) Gitea refuses to delete a user who still owns repositories or belongs to an organisation, and apply reports that refusal.',
    type: 'boolean',
    default: false,
  },
  badges: {
    title: 'Badges the server has',
    description:
      'Slugs of badges defined on the server (in its web admin) that no user this plan reads carries yet. No API lists a server\'s badges, and giving a user a slug the server does not have fails after the user is written (500), so a user\'s badges are refused at plan time unless a user the plan reads already carries each one, or it is listed here. Gitea 1.22 and newer.',
    type: 'array',
    uniqueItems: true,
    items: { type: 'string', minLength: 1 },
    default: [],
  },
};

/** The `users` section, the users' policy entries, the user definition and the SSH key one. */
export const fragment: SchemaFragment = {
  policy,
  properties: {
    users: {
      title: 'Users',
      description:
        "Users of the server, by user name (needs a site administrator's token with the write:admin scope). A user missing on the server is created (POST /admin/users); the fields written here are managed, the others are left alone. Users not listed here are deleted only when policy.prune contains users.",
      type: 'object',
      propertyNames: {
        type: 'string',
        maxLength: 40,
        pattern: '^[A-Za-z0-9](?:[-._]?[A-Za-z0-9])*$',
        patternErrorMessage: 'must be a user name (letters and digits, single "-", "_" or "." between them)',
      },
      additionalProperties: { $ref: '#/definitions/user' },
    },
  },
  definitions: {
    user: objectSchema(
      {
        title: 'User',
        description: "One user, keyed by user name. A field that is not written is not managed. A new user needs email, and password unless it signs in through an external source (source_id). Gitea makes a user created through the API change its password before it may use the web UI or the API (must_change_password defaults to true): write must_change_password: false for accounts that must work at once, e.g. bots.",
      },
      entries,
    ),
    ssh_key: {
      title: 'SSH key',
      description: 'One SSH public key.',
      type: 'object',
      additionalProperties: false,
      required: ['title', 'key'],
      properties: {
        title: {
          title: 'Title',
          description: 'Name shown for the key; used when the key is added (a different title on an existing key is not a change).',
          type: 'string',
          minLength: 1,
        },
        key: {
          title: 'Public key',
          description: 'The public key as in a .pub file: type, base64 key material, optional comment.',
          type: 'string',
          pattern: '^(ssh-[a-z0-9-]+|ecdsa-sha2-nistp(256|384|521)|sk-[a-zA-Z0-9@.-]+) [A-Za-z0-9+/]+={0,3}( .*)?$',
          patternErrorMessage: 'must be an OpenSSH public key like "ssh-ed25519 AAAAC3Nza... laptop"',
        },
      },
    },
  },
};
