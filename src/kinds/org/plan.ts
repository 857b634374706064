import type { Config, OrgConfig } from '../../config/types.js';
import { normalizeFields } from '../fields.js';
import { describeServer, serverHas, type Availability, type CurrentObject, type DesiredObject, type Kind, type Problem, type ServerInfo } from '../../model/index.js';
import { OWNER } from './ops.js';
import { fields } from './read.js';

/** Releases where `PATCH /orgs/{org}` with `email: ""` keeps the e-mail (no pointer yet): it cannot be cleared. */
const EMAIL_CANNOT_BE_CLEARED: Availability = { gitea: { until: '1.25' }, forgejo: { until: '9' } };
/** Forgejo reads visibility with `optional.FromNonDefault`, and public is the zero value: "public" is dropped. */
const PUBLIC_DROPPED: Availability = { forgejo: {} };

/** Why an edit of an existing organisation cannot be made through this server's API (see the tables above). */
function editRefusals(desired: DesiredObject, current: CurrentObject, server: ServerInfo): Problem[] {
  const want = desired.fields;
  const have = current.fields;
  const problems: Problem[] = [];
  if (want.email === '' && have.email && serverHas(server, EMAIL_CANNOT_BE_CLEARED))
    problems.push({
      path: [...desired.path, 'email'],
      message: `${describeServer(server)} cannot clear an organisation's e-mail through its API (an empty e-mail leaves it as it is; Gitea 1.26 and Forgejo 10 can): clear it in the organisation's settings in the web UI, or remove email from the config`,
    });
  if (want.visibility === 'public' && have.visibility !== 'public' && serverHas(server, PUBLIC_DROPPED))
    problems.push({
      path: [...desired.path, 'visibility'],
      message: `${describeServer(server)} cannot make an organisation public through its API (PATCH /orgs/{org} drops visibility "public"): change it in the web UI (the organisation's Settings → Visibility), or remove visibility from the config`,
    });
  return problems;
}

export const planning = {
  async desired(scopeConfig) {
    const objects: DesiredObject[] = [];
    for (const [name, org] of Object.entries<OrgConfig>((scopeConfig as Config).orgs ?? {})) {
      const managed = normalizeFields(fields, org as Record<string, unknown>, true);
      if (!org.owner && Object.keys(managed).length === 0) continue;
      objects.push({ key: name, fields: { ...managed, ...(org.owner ? { [OWNER]: org.owner } : {}) }, path: ['orgs', name] });
    }
    return objects.length ? { objects, problems: [] } : undefined;
  },

  check(desired, current, _scope, ctx) {
    if (!current && !desired.fields[OWNER]) return [{ path: desired.path, message: `organisation "${desired.key}" does not exist on the server: add owner: USER to create it` }];
    return current && ctx.server ? editRefusals(desired, current, ctx.server) : [];
  },
} satisfies Partial<Kind>;
