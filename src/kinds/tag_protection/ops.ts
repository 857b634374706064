import type { Writing } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';
import { waitForGrants } from '../branch_protection/accounts.js';
import { listPath } from './read.js';
import type { TagProtectionTypes } from './types.js';

/**
 * POST with the pattern and the lists declared; PATCH by id with the lists that changed only (and the new
 * pattern of a protection renamed with `previously`; EditTagProtection
 * changes a list only when it is in the body, and `[]` empties it: Gitea v1.23.8 routers/api/v1/repo/tag.go
 * l.541–568); DELETE by id.
 */
export const writing = {
  ops({ scope, action, desired, current, changed }) {
    const base = listPath(scope.segments);
    if (action === 'delete') return [{ method: 'DELETE', path: `${base}/${Number(current.id)}` }];
    if (action === 'create') return [{ method: 'POST', path: base, body: { name_pattern: desired.key, ...desired.fields } }];
    if (action !== 'update' && action !== 'rename') return notAnActionOf('tag_protection', action);
    const body: Record<string, unknown> = Object.fromEntries(changed.map((f) => [f, desired.fields[f] ?? []]));
    // A new pattern is taken as sent (not trimmed: check refuses spaces around it).
    if (action === 'rename') body.name_pattern = desired.key;
    return [{ method: 'PATCH', path: `${base}/${Number(current.id)}`, body }];
  },

  /** A user or team an allowlist names whom this plan gives access to the repository (a collaborator's PUT, a team's member or repository added): the protection is written after, or Gitea would drop the name. */
  dependsOn: waitForGrants,
} satisfies Writing<TagProtectionTypes>;
