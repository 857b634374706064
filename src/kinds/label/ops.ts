import type { KindWriting, Op, Scope } from '../../model/index.js';

/** Writing a label of a scope type, at its scope's list path. */
export function labelWriting(scopeType: 'repo' | 'org', listPath: (scope: Scope) => string) {
  return {
    ops({ scope, action, desired, current, changed }) {
      const base = listPath(scope);
      if (action === 'delete') return [{ method: 'DELETE', path: `${base}/${current.id}` }];
      const want = desired.fields;
      if (action === 'create') {
        const ops: Op[] = [{ method: 'POST', path: base, body: { name: desired.key, ...want } }];
        if (scopeType === 'org' && want.is_archived === true)
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
  } satisfies KindWriting;
}
