// The templates a repository to create names (gitignores, license, readme): one table says, per field,
// where the plan learns the server's names, and the plan's check refuses any other name at its
// place (templateProblems). The server reads all three from options/<type> (built in) and custom/options/<type> (the
// administrator's), case-sensitively (modules/repository/init.go LoadRepoConfig: v1.25.4 l.68–100, the same
// in every tag read).
// - .gitignore and license templates are listed by the API, custom ones included (GET /gitignore/templates,
//   GET /licenses: v1.25.4 routers/api/v1/api.go l.983–986): the plan asks the server.
// - readme templates are listed by no API: the plan knows the release's built-in ones (BUILTIN_READMES) and
//   the custom ones policy.readme_templates declares. CreateUserRepo (which CreateOrgRepo and the admin
//   create call) answers 400 "readme template does not exist, available templates: [...]" for any other
//   name when auto_init is set (routers/api/v1/repo/repo.go: Gitea v1.21.11 l.239–243, v1.22.6 l.247–251,
//   v1.23.8 l.245–249, v1.24.7 l.246–250, v1.25.4 l.246–250, main (1.26) l.247–251; Forgejo v7.0.16
//   l.242–246, v11.0.15 l.246–250, v15.0.3 l.262–266); without auto_init the name is not used.
import { asSet } from '../fields.js';
import { describeServer, serverHas, type Availability, type ScopeContext, type KindContext, type PolicyEntry, type Problem, type DesiredObject, type ServerInfo } from '../../model/index.js';
import type { Templates } from './types.js';

declare module '../../model/plan.js' {
  interface PlanPolicy {
    /** Readme templates of the server's custom/options/readme, which no API lists (templates.ts). */
    readme_templates?: string[];
  }
}

const isStringList = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');

export const templatePolicy: Record<string, PolicyEntry> = {
  readme_templates: { default: [], is: isStringList, expected: 'a list of readme template names' },
};

/**
 * The built-in readme templates of each release: the files under options/readme at its tag. Every tag
 * read has the one file options/readme/Default: Gitea v1.21.11, v1.22.6, v1.23.8, v1.24.7, v1.25.4,
 * main (1.26.0-dev); Forgejo v7.0.16, v8.0.3, v9.0.3, v10.0.3, v11.0.15, v12.0.4, v13.0.5, v14.0.3, v15.0.3.
 * A release that ships more gets a row of its own.
 */
const BUILTIN_READMES: readonly { in: Availability; names: readonly string[] }[] = [{ in: { gitea: {}, forgejo: {} }, names: ['Default'] }];

export function builtinReadmes(server: ServerInfo | undefined): string[] {
  return [...new Set(BUILTIN_READMES.filter((row) => serverHas(server, row.in)).flatMap((row) => row.names))];
}

type TemplateField = keyof Omit<Templates, 'noOwner'>;

interface TemplateSource {
  /** The config field, and the key of the names in what prepare returns. */
  field: TemplateField;
  /** How the plan knows the server's names: its API, or the release's built-in ones and a policy entry. */
  names(ctx: ScopeContext): Promise<Set<string>>;
  /** Why a name that is none of them is refused. */
  refusal(name: string, ctx: ScopeContext): string;
}

const listed = async (ctx: ScopeContext, path: string, pick: (x: unknown) => string[]) => new Set(pick(await ctx.cachedGet<unknown>(path, { object: path })));
const licenseNames = (x: unknown) => (Array.isArray(x) ? x.flatMap((l: { key?: string; name?: string }) => [l.key, l.name].filter((v): v is string => typeof v === 'string')) : []);
const release = (ctx: ScopeContext) => (ctx.server ? describeServer(ctx.server) : 'the server');

/** One row per template field a create sends: where its names come from, and the refusal. */
export const TEMPLATE_SOURCES: readonly TemplateSource[] = [
  {
    field: 'gitignores',
    names: (ctx) => listed(ctx, 'gitignore/templates', (x) => (Array.isArray(x) ? x.map(String) : [])),
    refusal: (name) => `"${name}" is not a .gitignore template of the server (GET /gitignore/templates)`,
  },
  {
    field: 'licenses',
    names: (ctx) => listed(ctx, 'licenses', licenseNames),
    refusal: (name) => `"${name}" is not a license template of the server (GET /licenses)`,
  },
  {
    field: 'readmes',
    names: async (ctx) => new Set([...builtinReadmes(ctx.server), ...(ctx.policy.readme_templates ?? [])]),
    refusal: (name, ctx) => {
      const builtIn = builtinReadmes(ctx.server);
      const declared = ctx.policy.readme_templates ?? [];
      return `"${name}" is neither a built-in readme template of ${release(ctx)} (${builtIn.join(', ')}; names are case-sensitive) nor one policy.readme_templates lists (${declared.length ? declared.join(', ') : 'none'}): the server would refuse the create (400 "readme template does not exist"). A template of the server's custom/options/readme cannot be listed through its API: add its name to policy.readme_templates`;
    },
  },
];

/** The config field each source checks (its names: one string, or a set). */
const FIELD_OF: Readonly<Record<TemplateField, string>> = { gitignores: 'gitignores', licenses: 'license', readmes: 'readme' };

/** The names of the templates the repositories to create name, by source, read only for the fields they declare. */
export async function templateNames(ctx: ScopeContext, missing: readonly DesiredObject[]): Promise<Omit<Templates, 'noOwner'>> {
  const found = await Promise.all(
    TEMPLATE_SOURCES.map(async (s) => [s.field, missing.some((d) => FIELD_OF[s.field] in d.fields) ? await s.names(ctx) : undefined] as const),
  );
  return Object.fromEntries(found.filter(([, names]) => names !== undefined));
}

/** A repository to create that names a template the server does not have: refused at the name. */
export function templateProblems(desired: DesiredObject, known: Omit<Templates, 'noOwner'>, ctx: KindContext): Problem[] {
  return TEMPLATE_SOURCES.flatMap((s) => {
    const names = known[s.field];
    const field = FIELD_OF[s.field];
    const value = desired.fields[field];
    if (!names || value === undefined) return [];
    return asSet(value)
      .filter((n) => !names.has(n))
      .map((n) => ({ path: [...desired.path, field], message: s.refusal(n, ctx) }));
  });
}
