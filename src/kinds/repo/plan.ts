import type { RepoConfig, RepoCreateConfig } from '../../config/types.js';
import { secretFromEnvironment } from '../secrets.js';
import { hasUserinfo } from '../url-userinfo.js';
import { withoutCredentials } from '../hook/read.js';
import { normalizeFields } from '../fields.js';
import { splitRepo, isGlobKey, type DesiredObject, type KindContext, type Planning, type Problem, type Reading, type Writing } from '../../model/index.js';
import { orgKind } from '../org/index.js';
import { accountMissing } from '../user/exists.js';
import { userKind } from '../user/index.js';
import { fields } from './read.js';
import type { RepoTypes } from './types.js';
import { mirrorIntervalProblem } from './mirror-interval.js';
import { templateNames, templateProblems } from './templates.js';

/** A repository declared as a pull mirror: its fields, the password as a Secret from the environment. */
function declaredMirror(key: string, mirror: NonNullable<RepoConfig['mirror']>, ctx: KindContext): { object: DesiredObject; problems: Problem[] } {
  const path = ['repos', key, 'mirror'];
  const { password, ...rest } = mirror;
  const f = normalizeFields(fields, { ...rest }, true);
  const problems: Problem[] = [];
  if (hasUserinfo(mirror.from))
    problems.push({ path: [...path, 'from'], message: 'from holds credentials (user:password@), which would be printed and saved with every plan: remove them and declare username and password: "${NAME}" instead' });
  if (password !== undefined) {
    const { secret, problems: p } = secretFromEnvironment(password, [...path, 'password'], 'password', ctx);
    problems.push(...p);
    if (secret) f.password = secret;
  }
  return { object: { key, fields: f, path }, problems };
}

export const planning = {
  async desired({ entry, ctx }) {
    const objects: DesiredObject[] = [];
    const problems: Problem[] = [];
    for (const [key, repo] of Object.entries(entry?.repos ?? {})) {
      if (repo.exclude && !isGlobKey(key)) problems.push({ path: ['repos', key, 'exclude'], message: `exclude: is for a glob entry ("acme/*"); "${key}" names one repository: remove it, or drop the repository from the glob's exclude` });
      const create: RepoCreateConfig | undefined = repo.create;
      const how = create ? 'create' : repo.mirror ? 'mirror' : undefined;
      if (!how) continue;
      const path = ['repos', key, how];
      if (isGlobKey(key)) problems.push({ path, message: `${how}: is not allowed on a glob ("${key}" matches existing repositories only): write the repository's full name` });
      else if (create && repo.mirror) problems.push({ path: ['repos', key, 'mirror'], message: 'a repository is created either empty (create:) or as a mirror (mirror:), not both: remove one' });
      else if (create) objects.push({ key, fields: normalizeFields(fields, { ...create }, true), path });
      else if (repo.mirror) {
        const one = declaredMirror(key, repo.mirror, ctx);
        problems.push(...one.problems);
        if (!one.problems.length) objects.push(one.object);
      }
    }
    return objects.length || problems.length ? { objects, problems } : undefined;
  },

  /** The API cannot change a pull mirror's source (EditRepoOption has only mirror_interval): a different one is a warning. */
  notices({ desired, current }) {
    return desired.flatMap((d) => {
      const c = current.find((x) => x.key === d.key);
      if (!c || typeof d.fields.from !== 'string' || !('interval' in c.fields)) return [];
      const have = withoutCredentials(String(c.fields.from));
      return have === withoutCredentials(d.fields.from) ? [] : [`repository ${d.key} mirrors ${JSON.stringify(have)}, not ${JSON.stringify(d.fields.from)}: the API cannot change a mirror's source (change it in the web UI: Settings → Mirror settings)`];
    });
  },

  async prepare(req) {
    const { scope, desired, current, ctx } = req;
    const missing = desired.filter((d) => !current.some((c) => c.key === d.key));
    // Plan time only: the owner of a repository to create exists, or this plan creates it (else apply's POST answers 404, and nothing is written).
    const owners = new Set(req.phase === 'plan' ? missing.map((d) => splitRepo(d.key)[0]) : []);
    const noOwner = new Set<string>();
    await Promise.all(
      [...owners].map(async (o) => (!ctx.madeBy(orgKind, scope, o) && !ctx.madeBy(userKind, scope, o) && (await accountMissing(ctx, o)) ? noOwner.add(o) : undefined)),
    );
    return { ...(await templateNames(ctx, missing)), noOwner };
  },

  check({ desired, current, prepared: t, ctx, config }) {
    // Gitea has no API that turns a repository into a mirror (nor one that converts a mirror back: the web UI does that).
    if (current && 'from' in desired.fields && !('interval' in current.fields))
      return [{ path: desired.path, message: `${desired.key} exists and is not a mirror: the API cannot turn a repository into a pull mirror. Remove mirror:, or delete or rename the repository so that forgeform creates the mirror` }];
    const problems: Problem[] = [];
    // A pull mirror's interval below the server's minimum (but 0), where it is sent: on create, or when it changes.
    const interval = desired.fields.interval;
    const written = config.repos?.[desired.key]?.mirror?.interval ?? interval;
    const tooShort = 'from' in desired.fields && (!current || current.fields.interval !== interval) ? mirrorIntervalProblem(written, ctx.policy.mirror_min_interval, ctx.server) : undefined;
    if (tooShort) problems.push({ path: [...desired.path, 'interval'], message: tooShort });
    if (current) return problems;
    const [owner] = splitRepo(desired.key);
    if (t.noOwner.has(owner))
      problems.push({ path: desired.path, message: `${desired.key}: its owner "${owner}" is neither a user nor an organisation on the server, and this configuration creates neither` });
    problems.push(...templateProblems(desired, t, ctx));
    return problems;
  },

  // Create-only settings: never compared with an existing repository; but a pull mirror's interval, as the server answers it.
  compare(field) {
    return field === 'interval' ? undefined : () => true;
  },
} satisfies Planning<RepoTypes> & Pick<Writing<RepoTypes>, 'prepare'> & Pick<Reading<RepoTypes>, 'compare'>;
