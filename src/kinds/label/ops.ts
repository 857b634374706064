import type { Op, Writing } from '../../model/index.js';
import { listPath } from './read.js';
import type { LabelTypes } from './types.js';

/** Writing a label, at its scope's list path. */
export const writing = {
  ops({ scope, action, desired, current, changed }) {
    const base = listPath(scope.segments);
    if (action === 'delete') return [{ method: 'DELETE', path: `${base}/${current.id}` }];
    const want = desired.fields;
    if (action === 'create') {
      const ops: Op[] = [{ method: 'POST', path: base, body: { name: desired.key, ...want } }];
      if (scope.type === 'org' && want.is_archived === true)
        ops.push({
          method: 'PATCH',
          path: `${base}/{id}`,
          body: { is_archived: true },
          reason: 'Gitea ignores is_archived when creating an organisation label',
        });
      return ops;
    }
    const body: Record<string, unknown> = {};
    if (action === 'rename') body.name = desired.key;
    for (const name of changed) body[name] = want[name];
    // A PATCH without is_archived un-archives the label: always say what it should be.
    body.is_archived = 'is_archived' in want ? want.is_archived : current.fields.is_archived;
    return [{ method: 'PATCH', path: `${base}/${current.id}`, body }];
  },
} satisfies Writing<LabelTypes>;
