import { normalizeFields } from '../fields.js';
import { secretFromEnvironment } from '../secrets.js';
import { refusedName } from '../actions_variable/names.js';
import { describeServer, serverHas, type DesiredObject, type Planning, type Problem } from '../../model/index.js';
import { fields, ORG_LOOKUP_REACHES_REPOS } from './fields.js';
import type { ActionsSecretTypes } from './types.js';

/** The config section of a scope type's entries. */
const SECTION = { repo: 'repos', org: 'orgs', server: '' } as const;

export const planning = {
  async desired({ entry, scope, ctx }) {
    const declared = entry?.secrets;
    if (!declared) return undefined;
    const objects: DesiredObject[] = [];
    const problems: Problem[] = [];
    for (const [name, s] of Object.entries(declared)) {
      const path = [SECTION[scope.type], scope.name, 'secrets', name];
      const refused = refusedName(name, 'secret', ctx.server);
      if (refused) problems.push({ path, message: refused });
      const { value, ...rest } = s;
      const f = normalizeFields(fields, rest, true);
      // From here on the value is a Secret: every output shows (sensitive), a plan file its ${NAME} template.
      const { secret, problems: p } = secretFromEnvironment(value, [...path, 'value'], 'value', ctx);
      problems.push(...p);
      if (secret) f.value = secret;
      objects.push({ key: name, fields: f, path });
    }
    return { objects, problems };
  },

  /**
   * Where an organisation's secret list and DELETE also reach secrets of its repositories (ORG_LOOKUP_REACHES_REPOS),
   * an undeclared name may be a repository's secret: deleting it through the organisation would delete that one.
   */
  keep({ scope, ctx }) {
    if (scope.type !== 'org' || !ctx.server || !serverHas(ctx.server, ORG_LOOKUP_REACHES_REPOS)) return undefined;
    return `${describeServer(ctx.server)} lists and deletes an organisation's secrets by owner alone, so this may be a secret of one of its repositories (put through the API before Gitea 1.22 or Forgejo 9): delete it in the web UI`;
  },
} satisfies Planning<ActionsSecretTypes>;
