/**
 * Where a release's handler does otherwise than its own swagger (`templates/swagger/v1_json.tmpl`, read
 * into src/sandbox/flavours/swagger/*.json by scripts/swagger-tables.mjs): the handler wins. Key: an
 * answer or request key (`Struct.key`) or a route (`METHOD /path`); value: the releases that really
 * have it, and where that was read.
 */
import type { Availability } from './availability.js';

export interface SwaggerException {
  handler: Availability;
  source: string;
}

export const SWAGGER_EXCEPTIONS: Record<string, SwaggerException> = {
  // Forgejo 7's swagger puts it at `/repos/{owner}/{repo}/runners/registration-token` (no `/actions`); the
  // router registers it inside the `/actions` group: v7.0.16 `routers/api/v1/api.go` l.993–994.
  'GET /repos/:owner/:repo/actions/runners/registration-token': {
    handler: { gitea: { since: '1.22', until: '1.25' }, forgejo: {} },
    source: 'Forgejo v7.0.16 routers/api/v1/api.go l.993–994',
  },
  'GET /repos/:owner/:repo/runners/registration-token': { handler: {}, source: 'Forgejo v7.0.16 routers/api/v1/api.go l.993–994 (swagger only)' },
  // The answer's `username` comes from `User.MarshalJSON` ("for backward compatibility"), which no swagger lists:
  // Gitea v1.21.11 `modules/structs/user.go` l.57–66, Forgejo v7.0.16 l.59–68, upstream main l.62–70.
  'User.username': { handler: { gitea: {}, forgejo: {} }, source: 'modules/structs/user.go User.MarshalJSON, every tag' },
  // `read_only,omitempty`: a user key is never read-only, so a user key's answer never has it
  // (Gitea v1.24.7 `modules/structs/user_key.go` l.21, Forgejo v7.0.16 the same).
  'PublicKey.read_only': { handler: {}, source: 'modules/structs/user_key.go `read_only,omitempty` (user keys: always false)' },
};
