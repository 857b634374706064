import type { Config, RepoCreateConfig } from '../../config/types.js';
import { normalizeFields } from '../fields.js';
import { splitRepo, isGlobKey, type DesiredObject, type Kind, type Problem } from '../../model/index.js';
import { orgKind } from '../org/index.js';
import { accountMissing } from '../user/exists.js';
import { userKind } from '../user/index.js';
import { fields } from './read.js';

/** The template names of the server, read only when a repository with templates is to be created. */
interface Templates {
  gitignores?: Set<string>;
  licenses?: Set<string>;
  /** Owners of repositories to create that exist nowhere (not on the server, not made by this plan). */
  noOwner?: Set<string>;
}

export const planning = {
  async desired(scopeConfig) {
    const objects: DesiredObject[] = [];
    const problems: Problem[] = [];
    for (const [key, repo] of Object.entries((scopeConfig as Config).repos ?? {})) {
      const create: RepoCreateConfig | undefined = repo.create;
      if (!create) continue;
      const path = ['repos', key, 'create'];
      if (isGlobKey(key)) problems.push({ path, message: `create: is not allowed on a glob ("${key}" matches existing repositories only): write the repository's full name` });
      else objects.push({ key, fields: normalizeFields(fields, create as Record<string, unknown>, true), path });
    }
    return objects.length || problems.length ? { objects, problems } : undefined;
  },

  async prepare(scope, desired, current, ctx): Promise<Templates> {
    const missing = desired.filter((d) => !current.some((c) => c.key === d.key));
    // Plan time only: the owner of a repository to create exists, or this plan creates it (else apply's POST answers 404).
    const owners = new Set('loaded' in ctx ? missing.map((d) => splitRepo(d.key)[0]) : []);
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

  check(desired, current, _scope, _ctx, prepared) {
    if (current) return [];
    const t = (prepared ?? {}) as Templates;
    const problems: Problem[] = [];
    const [owner] = splitRepo(desired.key);
    if (t.noOwner?.has(owner))
      problems.push({ path: desired.path, message: `${desired.key}: its owner "${owner}" is neither a user nor an organisation on the server, and this configuration creates neither` });
    for (const g of (desired.fields.gitignores as string[] | undefined) ?? [])
      if (t.gitignores && !t.gitignores.has(g))
        problems.push({ path: [...desired.path, 'gitignores'], message: `"${g}" is not a .gitignore template of the server (GET /gitignore/templates)` });
    const license = desired.fields.license as string | undefined;
    if (license !== undefined && t.licenses && !t.licenses.has(license))
      problems.push({ path: [...desired.path, 'license'], message: `"${license}" is not a license template of the server (GET /licenses)` });
    return problems;
  },

  // Create-only settings: never compared with an existing repository.
  compare() {
    return () => true;
  },
} satisfies Partial<Kind>;
