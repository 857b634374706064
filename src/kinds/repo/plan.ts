import type { Config, RepoCreateConfig } from '../../config/types.js';
import { normalizeFields } from '../fields.js';
import { isGlobKey, type DesiredObject, type Kind, type Problem } from '../../model/index.js';
import { fields } from './read.js';

/** The template names of the server, read only when a repository with templates is to be created. */
interface Templates {
  gitignores?: Set<string>;
  licenses?: Set<string>;
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

  async prepare(_scope, desired, current, ctx): Promise<Templates> {
    const missing = desired.filter((d) => !current.some((c) => c.key === d.key));
    const names = async (path: string, pick: (x: unknown) => string[]) => new Set(pick(await ctx.cachedGet<unknown>(path, { object: path })));
    const [gitignores, licenses] = await Promise.all([
      missing.some((d) => 'gitignores' in d.fields) ? names('gitignore/templates', (x) => (Array.isArray(x) ? x.map(String) : [])) : undefined,
      missing.some((d) => 'license' in d.fields)
        ? names('licenses', (x) => (Array.isArray(x) ? x.flatMap((l: { key?: string; name?: string }) => [l.key, l.name].filter((v): v is string => typeof v === 'string')) : []))
        : undefined,
    ]);
    return { ...(gitignores ? { gitignores } : {}), ...(licenses ? { licenses } : {}) };
  },

  check(desired, current, _scope, _ctx, prepared) {
    if (current) return [];
    const t = (prepared ?? {}) as Templates;
    const problems: Problem[] = [];
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
