import { defineKind } from '../../model/index.js';
import { exporting } from './export.js';
import { writing } from './ops.js';
import { planning, safety } from './plan.js';
import { reading } from './read.js';
import type { PushMirrorTypes } from './types.js';

/**
 * Push mirrors of a repository (repos.NAME.push_mirrors), a list identified by remote address (the server
 * names them remote_mirror_xxx at random). No release can edit one: any change is a replacement (delete +
 * create), which sends the credentials declared again. The credentials are write-only (never answered),
 * the password from an environment variable only. read.ts reads them (one list per repository), plan.ts
 * plans them, ops.ts writes them, export.ts exports them.
 */
export const pushMirrorKind = defineKind<PushMirrorTypes['config'], PushMirrorTypes['server'], PushMirrorTypes['prepared'], PushMirrorTypes['run']>({
  name: 'push_mirror',
  title: 'push mirror',
  pruneKey: 'push_mirrors',
  configKey: 'push_mirrors',
  scopeType: 'repo',
  actions: ['create', 'delete', 'replace'],
  replaceToEdit: true,
  replaceToRotate: true,
  // Gitea and Forgejo 7–8 check a push mirror's address with IsMigrateURLAllowed (http, https, git): an ssh:// one is
  // 400 "Invalid mirror protocol" (services/migrations/migrate.go Gitea v1.25.4 l.74, Forgejo v8.0.0 l.74). Forgejo 9
  // adds ssh there (v9.0.0 and v10.0.0 l.74, with the push mirror's public-key auth, 03508b33a8; CreatePushMirror
  // calls it, v9.0.0 routers/api/v1/repo/mirror.go l.364-369); Forgejo 11 keeps ssh for push mirrors only (v11.0.15 l.83).
  features: {
    ssh_remote: {
      availability: { forgejo: { since: '9' } },
      what: 'an ssh:// remote_address',
      usedBy: (d) => (typeof d.remote_address === 'string' && /^ssh:\/\//i.test(d.remote_address.trim()) ? 'remote_address' : undefined),
    },
  },
  ...reading,
  ...planning,
  ...safety,
  ...writing,
  ...exporting,
});
