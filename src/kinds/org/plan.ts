import type { OrgConfig } from '../../config/types.js';
import { normalizeFields } from '../fields.js';
import { describeServer, serverHas, SERVER_SCOPE, type Availability, type CurrentObject, type DesiredObject, type Planning, type Problem, type ServerInfo, type Writing } from '../../model/index.js';
import { PUBLIC_DROPPED } from '../../releases/availability.js';
import { accountMissing } from '../user/exists.js';
import { userKind } from '../user/index.js';
import { OWNER } from './ops.js';
import { emailProblem } from '../email.js';
import { fields, type OrgTypes } from './read.js';

/**
 * Releases where `PATCH /orgs/{org}` with `email: ""` keeps the e-mail (no pointer yet): it cannot be cleared.
 * Forgejo v9.0.0 routers/api/v1/org/org.go l.346 `if form.Email != ""`; v10.0.0 makes it `*string`
 * (modules/structs/org.go l.51) and clears it (org.go l.353-360).
 */
const EMAIL_CANNOT_BE_CLEARED: Availability = { gitea: { until: '1.25' }, forgejo: { until: '9' } };
/**
 * Releases whose `PATCH /orgs/{org}` answers the e-mail sent but does not save it: Gitea 1.21
 * (v1.21.11 `routers/api/v1/org/org.go` l.348 `org.Email = form.Email`, and `UpdateUserCols` l.358–361
 * lists no "email"). 1.22 saves it through `ReplacePrimaryEmailAddress` (v1.22.6 l.345–346).
 */
const EMAIL_NOT_STORED: Availability = { gitea: { until: '1.21' } };

/**
 * Where a release that stores an organisation's e-mail checks it: EditOrg (routers/api/v1/org/org.go) sends a
 * non-empty e-mail to ReplacePrimaryEmailAddress (services/user/email.go), whose ValidateEmail refuses one that
 * is not an address (models/user/email_address.go, validateEmailBasic): answered 500 by Gitea and Forgejo ≤ 9,
 * 422 from Forgejo 10 (IsErrEmailInvalid: v10.0.3 org.go l.363–364, v11.0.15 and v14.0.5 l.401–402). Gitea 1.21 does not store it (EMAIL_NOT_STORED).
 */
const EMAIL_CHECKED_AT: readonly (readonly [Availability, string])[] = [
  [{ gitea: { since: '1.22', until: '1.24' } }, 'v1.22.6 routers/api/v1/org/org.go:346–347, services/user/email.go:76'],
  [{ gitea: { since: '1.25' } }, 'v1.25.4 routers/api/v1/org/org.go:382–386, services/user/email.go:22'],
  [{ forgejo: { until: '9' } }, 'v7.0.16 routers/api/v1/org/org.go:346–348, services/user/email.go:76'],
  [{ forgejo: { since: '10', until: '10' } }, 'v10.0.3 routers/api/v1/org/org.go:362–364'],
  [{ forgejo: { since: '11' } }, 'v15.0.3 routers/api/v1/org/org.go:400–402, services/user/email.go:80'],
];

/** An e-mail the release would refuse, where it is sent (a new organisation's, or a changed one). */
function emailSyntax(desired: DesiredObject, current: CurrentObject | undefined, server: ServerInfo): Problem[] {
  const email = desired.fields.email;
  if (typeof email !== 'string' || email === '' || email === current?.fields.email || serverHas(server, EMAIL_NOT_STORED)) return [];
  const bad = emailProblem(email);
  const at = EMAIL_CHECKED_AT.find(([a]) => serverHas(server, a))?.[1];
  return bad ? [{ path: [...desired.path, 'email'], message: `${bad}: ${describeServer(server)} refuses it (${at ?? 'routers/api/v1/org/org.go EditOrg → ReplacePrimaryEmailAddress → ValidateEmail'})` }] : [];
}

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
  if ('email' in want && String(want.email ?? '') !== String(have.email ?? '') && serverHas(server, EMAIL_NOT_STORED))
    problems.push(emailNotStored(desired, server));
  if (want.visibility === 'public' && have.visibility !== 'public' && serverHas(server, PUBLIC_DROPPED))
    problems.push({
      path: [...desired.path, 'visibility'],
      message: `${describeServer(server)} cannot make an organisation public through its API (PATCH /orgs/{org} drops visibility "public"): change it in the web UI (the organisation's Settings → Visibility), or remove visibility from the config`,
    });
  return problems;
}

function emailNotStored(desired: DesiredObject, server: ServerInfo): Problem {
  return {
    path: [...desired.path, 'email'],
    message: `${describeServer(server)} cannot set an organisation's e-mail through its API (PATCH /orgs/{org} answers the new e-mail but does not save it; Gitea 1.22 does): set it in the organisation's settings in the web UI, or remove email from the config`,
  };
}

export const planning = {
  async desired({ entry }) {
    const objects: DesiredObject[] = [];
    for (const [name, org] of Object.entries<OrgConfig>(entry?.orgs ?? {})) {
      const managed = normalizeFields(fields, { ...org }, true);
      if (!org.owner && Object.keys(managed).length === 0) continue;
      objects.push({ key: name, fields: { ...managed, ...(org.owner ? { [OWNER]: org.owner } : {}) }, path: ['orgs', name] });
    }
    return objects.length ? { objects, problems: [] } : undefined;
  },

  check({ desired, current, ctx, prepared: missingOwners }) {
    if (!current && !desired.fields[OWNER]) return [{ path: desired.path, message: `organisation "${desired.key}" does not exist on the server: add owner: USER to create it` }];
    const owner = desired.fields[OWNER];
    if (!current && missingOwners.has(String(owner)))
      return [{ path: [...desired.path, OWNER], message: `owner: user "${String(owner)}" does not exist on the server, and this configuration does not create it` }];
    if (!ctx.server) return [];
    // A new organisation's e-mail is set by a PATCH after the create: the same refusal.
    const syntax = emailSyntax(desired, current, ctx.server);
    if (!current) return desired.fields.email && serverHas(ctx.server, EMAIL_NOT_STORED) ? [emailNotStored(desired, ctx.server)] : syntax;
    return [...syntax, ...editRefusals(desired, current, ctx.server)];
  },
} satisfies Planning<OrgTypes>;

export const preparing = {
  /**
   * The owners of organisations to create that do not exist, nor are made by this plan (else POST
   * /admin/users/{owner}/orgs answers 404 at apply): asked when the plan is made, for check. A saved
   * plan asks nothing (Gitea refuses a create for an owner gone since, and nothing is written then).
   */
  async prepare(req) {
    const { scope, desired, current, ctx } = req;
    const missing = new Set<string>();
    if (req.phase === 'apply') return missing;
    const owners = new Set(desired.filter((d) => !current.some((c) => c.key === d.key) && typeof d.fields[OWNER] === 'string').map((d) => String(d.fields[OWNER])));
    // The users section makes the plan read every user anyway: no request more.
    const known = req.config.users ? new Set((await ctx.currentOf(userKind, SERVER_SCOPE)).map((u) => u.key.toLowerCase())) : undefined;
    const exists = async (o: string) => (known ? known.has(o.toLowerCase()) : !(await accountMissing(ctx, o, 'users')));
    await Promise.all([...owners].map(async (o) => (!ctx.madeBy(userKind, scope, o) && !(await exists(o)) ? missing.add(o) : undefined)));
    return missing;
  },
} satisfies Pick<Writing<OrgTypes>, 'prepare'>;
