import type { Config, RepoCreateConfig } from '../../config/types.js';
import { isApiError } from '../../gitea/errors.js';
import { apiPath } from '../../gitea/path.js';
import { splitRepo } from '../branch-protection/index.js';
import { bool, normalizeFields, set, str, text } from '../fields.js';
import { orgKind, userChangeIds } from '../org/index.js';
import { userKind } from '../user/index.js';
import { isGlobKey, type CurrentObject, type DesiredObject, type FieldSpec, type Kind, type OpsInput, type Problem } from '../../model/index.js';
import { notAnActionOf } from '../actions.js';

const fields: FieldSpec[] = [bool('private'), text('description'), bool('auto_init'), str('default_branch'), set('gitignores'), str('license'), str('readme')];

/** The template names of the server, read only when a repository with templates is to be created. */
interface Templates {
  gitignores?: Set<string>;
  licenses?: Set<string>;
}

/**
 * Repositories as objects of the server, for creation only: `repos."owner/name".create` creates a
 * missing repository on behalf of its owner (admin API). Nothing of an existing repository is compared
 * and repositories are never deleted. The change is `repo/server:/owner/name`, which the repository's
 * own kinds (labels, protections) wait for.
 */
export const repoKind: Kind = {
  name: 'repo',
  uniqueNames: true,
  title: 'repository',
  // Repositories are never deleted: no policy.prune entry names them.
  pruneKey: 'repos',
  configKey: 'repos',
  scopeType: 'server',
  actions: ['create'],
  fields,
  target: { type: 'repo', placeholder: 'OWNER/NAME' },
  createsScope: 'repo',
  // A new repository's owner may be an organisation or user this plan creates.
  after: [orgKind.name, userKind.name],
  // No export facet: export writes repositories as scopes, not as objects to create.

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

  // One GET per repository to create; the scope resolution made the same GETs, and they are shared.
  async read(_scope, ctx, desired) {
    const found = await Promise.all(
      (desired ?? []).map(async (d): Promise<CurrentObject | undefined> => {
        const [owner, name] = splitRepo(d.key);
        try {
          const r = await ctx.cachedGet<{ id: number }>(apiPath('repos', owner, name), { object: `repository ${d.key}` });
          return { key: d.key, id: r.id, fields: {} };
        } catch (e) {
          if (isApiError(e, 404)) return undefined;
          throw e;
        }
      }),
    );
    return found.filter((r): r is CurrentObject => r !== undefined);
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

  dependsOn({ action, desired, scope, ctx }: OpsInput) {
    if (action !== 'create') return [];
    const [owner] = splitRepo(desired.key);
    const org = ctx.madeBy(orgKind, scope, owner);
    return [...(org ? [org] : []), ...userChangeIds(ctx, scope, owner)];
  },

  ops({ action, desired }) {
    if (action !== 'create') return notAnActionOf('repository', action);
    const [owner, name] = splitRepo(desired.key);
    const body: Record<string, unknown> = { name };
    for (const [k, v] of Object.entries(desired.fields)) body[k] = k === 'gitignores' ? (v as string[]).join(',') : v;
    return [{ method: 'POST', path: apiPath('admin', 'users', owner, 'repos'), body }];
  },

  fromServer(raw) {
    const r = raw as Record<string, unknown>;
    return { key: String(r.full_name), id: Number(r.id), fields: {} };
  },
};
