import { bool, field, objectSchema, serverFields } from '../fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';
import { storedLine } from './ssh-key.js';

/**
 * A deploy key's config: its title is its name (the map key: the server refuses a second key of one title in a
 * repository, `checkDeployKey`, models/asymkey/ssh_key_deploy.go Gitea v1.25.4 l.80-87, Forgejo v15.0.3 l.80-87),
 * its public key and whether it may push. CreateKeyOption binds `title` and `key` as Required and `read_only`
 * as a plain bool (modules/structs/repo_key.go Gitea v1.21.11 l.30-38, v1.25.4 l.39-48, Forgejo v7.0.16 and
 * v15.0.3 l.30-38; src/releases/field-rules). No release edits a deploy key (GET, POST and DELETE only:
 * routers/api/v1/api.go Gitea v1.25.4 l.1306-1311, Forgejo v15.0.3 l.1248-1253).
 */
export const entries: EntrySpec[] = [
  field({ name: 'key', type: 'scalar', answer: 'string', normalize: storedLine, abbreviated: true }, {
    title: 'Public key',
    description:
      'The SSH public key, as one OpenSSH line: "ssh-ed25519 AAAA… comment" (the content of a .pub file; a line break inside is removed, as the server does). Compared by its key material (type and SHA256 fingerprint): a key that differs only in its comment is the same key, since the server keeps the text a key was first added with. Another key replaces the deploy key (delete + create). Plans show it shortened.',
    type: 'string',
    minLength: 1,
  }),
  bool('read_only', {
    title: 'Read-only',
    description:
      'true: the key can only pull; false: it can push too. Default on create: false (the server gives write access when read_only is not sent: AddDeployKey, models/asymkey/ssh_key_deploy.go). Changing it replaces the deploy key (delete + create).',
  }),
];

export const fields = serverFields(entries);

export const fragment: SchemaFragment = {
  definitions: {
    deploy_key: objectSchema(
      {
        title: 'Deploy key',
        description:
          'An SSH key with access to this repository alone, keyed by its title. The server has no edit of a deploy key: a changed key or read_only is a replacement (delete + create), shown as such in the plan. A field that is not written is not managed.',
        required: ['key'],
      },
      entries,
    ),
  },
};
