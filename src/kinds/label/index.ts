import { apiPath } from '../../gitea/path.js';
import { splitRepo, type CurrentObject, type Kind, type Scope } from '../../model/index.js';
import { labelWriting } from './ops.js';
import { labelPlanning } from './plan.js';
import { labelReading } from './read.js';

export { normalizeColor } from './read.js';

/** Labels of a repository or an organisation: read.ts reads them, plan.ts plans them, ops.ts writes them. */
function makeLabelKind(scopeType: 'repo' | 'org'): Kind {
  const section = scopeType === 'repo' ? 'repos' : 'orgs';
  const listPath = (scope: Scope) =>
    scopeType === 'repo' ? apiPath('repos', ...splitRepo(scope.name), 'labels') : apiPath('orgs', scope.name, 'labels');

  const kind: Kind = {
    name: `${scopeType}_label`,
    title: scopeType === 'repo' ? 'label' : 'organisation label',
    pruneKey: 'labels',
    configKey: 'labels',
    scopeType,
    actions: ['create', 'update', 'rename', 'delete'],
    ...labelReading(listPath),
    ...labelPlanning(scopeType, section, () => kind),
    ...labelWriting(scopeType, listPath),

    toConfig(current: CurrentObject) {
      const f = current.fields;
      const out: Record<string, unknown> = { color: f.color };
      if (f.description) out.description = f.description;
      if (f.exclusive) out.exclusive = true;
      if (f.is_archived) out.is_archived = true;
      return out;
    },
  };
  return kind;
}

export const repoLabelKind = makeLabelKind('repo');
export const orgLabelKind = makeLabelKind('org');
