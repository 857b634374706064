import { bool, configEntry, field, inForgejo, objectSchema, only, serverFields, str } from '../fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';
import { durationString } from '../../go-duration.js';

/** A Go duration as `time.ParseDuration` takes it: "8h", "1h30m", "10m0s", or 0. */
export const DURATION_PATTERN = '^[+]?((\\d+(\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h))+$|^0$';

/**
 * A push mirror's config: its remote (the identity: the server names mirrors remote_mirror_xxx at random),
 * the credentials it pushes with (never answered), and what the server answers back.
 */
export const entries: EntrySpec[] = [
  configEntry('remote_address', {
    title: 'Remote address',
    description:
      'The repository pushed to: an http(s) or git URL (ssh:// on Forgejo 9 and newer only), without credentials (declare remote_username and remote_password instead). The identity of the mirror: a different address is another mirror.',
    type: 'string',
    pattern: '^(https?|git|ssh)://[^\\s]+$',
    patternErrorMessage: 'must be an http://, https://, git:// or ssh:// URL without spaces',
  }),
  // Kept in the git remote only (AddPushMirrorRemote): no release answers it.
  field({ name: 'remote_username', type: 'scalar', writeOnly: true }, {
    title: 'Remote user name (write-only)',
    description: 'The user name the mirror pushes as. The server never answers it: it is sent when the mirror is created (or created again).',
    type: 'string',
    minLength: 1,
  }),
  field({ name: 'remote_password', type: 'scalar', writeOnly: true, sensitive: true }, {
    title: 'Remote password or token (write-only, secret)',
    description:
      'The password or token the mirror pushes with. Must come from an environment variable ("${NAME}"): never printed nor saved in a plan file. The server never answers it and cannot change it in place: it is sent when the mirror is created, and --rotate-secrets replaces the mirror (delete + create) to change it.',
    type: 'string',
    minLength: 1,
  }),
  field({ name: 'interval', type: 'scalar', answer: 'string', normalize: durationString }, {
    title: 'Interval',
    description:
      'How often the mirror is pushed, as a Go duration ("8h", "1h30m"); "0" pushes only on commits (with sync_on_commit) or by hand. Compared as the server answers it ("8h" is "8h0m0s"). The server refuses an interval below its [mirror] MIN_INTERVAL (10m by default) other than 0. Default on create: 8h.',
    type: 'string',
    pattern: DURATION_PATTERN,
    patternErrorMessage: 'must be a duration like "8h", "1h30m" or "10m", or "0"',
  }),
  bool('sync_on_commit', { title: 'Push on commit', description: 'Push to the mirror whenever the repository receives a push, besides the interval. Default on create: false.' }),
  // Forgejo 13 (modules/structs/mirror.go CreatePushMirrorOption.BranchFilter: v13.0.0 l.16, l.34; CreatePushMirror
  // l.392, convert/mirror.go l.26; #7823, 9dfdacf54f; not in v12.0.0); elsewhere ignored.
  only(inForgejo('13'), str('branch_filter', { title: 'Branch filter', description: 'Forgejo 13 and newer: the branches pushed (a glob such as "main" or "release/*"); "" pushes every branch.' })),
];

export const fields = serverFields(entries);

export const fragment: SchemaFragment = {
  definitions: {
    push_mirror: objectSchema(
      {
        title: 'Push mirror',
        description:
          'A remote this repository is pushed to. Identity: remote_address. The server has no edit of a push mirror: any change is a replacement (delete + create), shown as such in the plan. A field that is not written is not managed.',
        required: ['remote_address'],
      },
      entries,
    ),
  },
};
