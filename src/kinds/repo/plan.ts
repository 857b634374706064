import type { RepoCreateConfig } from '../../config/types.js';
import { asSet, normalizeFields } from '../fields.js';
import { splitRepo, isGlobKey, type DesiredObject, type Planning, type Problem, type Reading, type Writing } from '../../model/index.js';
import { orgKind } from '../org/index.js';
import { accountMissing } from '../user/exists.js';
import { userKind } from '../user/index.js';
import { fields } from './read.js';
import type { RepoTypes } from './types.js';

export const planning = {
  async desired({ entry }) {
    const objects: DesiredObject[] = [];
    const problems: Problem[] = [];
    for (const [key, repo] of Object.entries(entry?.repos ?? {})) {
      const create: RepoCreateConfig | undefined = repo.create;
      if (!create) continue;
      const path = ['repos', key, 'create'];
      if (isGlobKey(key)) problems.push({ path, message: `create: is not allowed on a glob ("${key}" matches existing repositories only): write the repository's full name` });
      else objects.push({ key, fields: normalizeFields(fields, { ...create }, true), path });
    }
    return objects.length || problems.length ? { objects, problems } : undefined;
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
    const names = async (path: string, pick: (x: unknown) => string[]) => new Set(pick(await ctx.cachedGet<unknown>(path, { object: path })));
    const [gitignores, licenses] = await Promise.all([
      missing.some((d) => 'gitignores' in d.fields) ? names('gitignore/templates', (x) => (Array.isArray(x) ? x.map(String) : [])) : undefined,
      missing.some((d) => 'license' in d.fields)
        ? names('licenses', (x) => (Array.isArray(x) ? x.flatMap((l: { key?: string; name?: string }) => [l.key, l.name].filter((v): v is string => typeof v === 'string')) : []))
        : undefined,
    ]);
    return { ...(gitignores ? { gitignores } : {}), ...(licenses ? { licenses } : {}), noOwner };
  },

  check({ desired, current, prepared: t }) {
    if (current) return [];
    const problems: Problem[] = [];
    const [owner] = splitRepo(desired.key);
    if (t.noOwner.has(owner))
      problems.push({ path: desired.path, message: `${desired.key}: its owner "${owner}" is neither a user nor an organisation on the server, and this configuration creates neither` });
    for (const g of asSet(desired.fields.gitignores))
      if (t.gitignores && !t.gitignores.has(g))
        problems.push({ path: [...desired.path, 'gitignores'], message: `"${g}" is not a .gitignore template of the server (GET /gitignore/templates)` });
    const license = desired.fields.license;
    if (typeof license === 'string' && t.licenses && !t.licenses.has(license))
      problems.push({ path: [...desired.path, 'license'], message: `"${license}" is not a license template of the server (GET /licenses)` });
    return problems;
  },

  // Create-only settings: never compared with an existing repository.
  compare() {
    return () => true;
  },
} satisfies Planning<RepoTypes> & Pick<Writing<RepoTypes>, 'prepare'> & Pick<Reading<RepoTypes>, 'compare'>;
