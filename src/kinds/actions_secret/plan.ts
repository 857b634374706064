import { normalizeFields } from '../fields.js';
import { secretFromEnvironment } from '../secrets.js';
import { declaredByName } from '../actions-values.js';
import { unitOffNotice, unitOffOf, unitOffProblem, unitTurnedOffProblem } from '../actions-unit.js';
import { describeServer, serverHas, type Planning } from '../../model/index.js';
import { fields, ORG_LOOKUP_REACHES_REPOS } from './fields.js';
import type { ActionsSecretTypes } from './types.js';

export const planning = {
  async desired({ entry, scope, ctx }) {
    return declaredByName(entry?.secrets, 'secret', scope, ctx.server, ({ value, ...rest }, path, problems) => {
      const f = normalizeFields(fields, rest, true);
      // From here on the value is a Secret: every output shows (sensitive), a plan file its ${NAME} template.
      const { secret, problems: p } = secretFromEnvironment(value, [...path, 'value'], 'value', ctx);
      problems.push(...p);
      if (secret) f.value = secret;
      return f;
    });
  },

  /**
   * Where an organisation's secret list and DELETE also reach secrets of its repositories (ORG_LOOKUP_REACHES_REPOS),
   * an undeclared name may be a repository's secret: deleting it through the organisation would delete that one.
   */
  keep({ scope, ctx }) {
    if (scope.type !== 'org' || !ctx.server || !serverHas(ctx.server, ORG_LOOKUP_REACHES_REPOS)) return undefined;
    return `${describeServer(ctx.server)} lists and deletes an organisation's secrets by owner alone, so this may be a secret of one of its repositories (put through the API before Gitea 1.22 or Forgejo 9): delete it in the web UI`;
  },

  /** A repository whose Actions unit is off and stays off or turns off in this plan (src/kinds/actions-unit.ts): its secrets cannot be written. */
  check({ desired, scope, ctx, prepared }) {
    return [...unitOffProblem('secret', desired.path, scope, ctx, prepared), ...unitTurnedOffProblem('secret', desired.path, scope, ctx)];
  },

  notices({ desired, scope, ctx, run }) {
    return desired.length ? [] : unitOffNotice('secret', scope, unitOffOf(scope, ctx, run));
  },
} satisfies Planning<ActionsSecretTypes>;
