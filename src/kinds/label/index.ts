import { defineKind, type Kind } from '../../model/index.js';
import { writing } from './ops.js';
import { planning, runState, safety } from './plan.js';
import { reading } from './read.js';
import type { LabelTypes } from './types.js';
import { exporting } from './export.js';

export { normalizeColor } from './read.js';

/**
 * Labels of a repository or an organisation: one family of two kinds, alike but for their scope type
 * (src/kinds/label holds both; test/unit/registry-contract.test.ts states the rule). read.ts reads
 * them, plan.ts plans them, ops.ts writes them, export.ts exports them.
 */
function labelKind(scopeType: 'repo' | 'org', title: string): Kind {
  return defineKind<LabelTypes['config'], LabelTypes['server'], LabelTypes['prepared'], LabelTypes['run']>({
    name: `${scopeType}_label`,
    title,
    pruneKey: 'labels',
    configKey: 'labels',
    sends: [{ struct: 'CreateLabelOption', key: 'name' }, { struct: 'EditLabelOption', key: 'name' }],
    scopeType,
    actions: ['create', 'update', 'rename', 'delete'],
    runState,
    ...reading,
    ...planning,
    ...safety,
    ...writing,
    ...exporting,
  });
}

export const repoLabelKind = labelKind('repo', 'label');
export const orgLabelKind = labelKind('org', 'organisation label');
