// What the Actions secret and variable kinds share (src/kinds/actions_secret, src/kinds/actions_variable): both are
// values workflows read, named per repository or organisation under …/actions/secrets or …/actions/variables, by
// the same name rules, with the same description (Gitea 1.24+), declared in like sections of a scope's config.
import { apiPath } from '../gitea/path.js';
import { byName, configEntry, inGitea, only, text } from './fields.js';
import { describeServer, serverHas, type Availability, type ConfigEntry, type ConfigPath, type ConfigSchema, type DesiredObject, type FieldSpec, type Problem, type Scope, type ServerInfo } from '../model/index.js';

/** One of the two: its config key, its route and its definition are this word's plural and `actions_` + it. */
export type ActionsValue = 'secret' | 'variable';

/** Descriptions of secrets and variables: Gitea 1.24 (#33526, 8f051d598c); no Forgejo (v15.0.3 modules/structs/variable.go has none). */
export const DESCRIPTIONS = inGitea('1.24');

/** A scope's secrets or variables (`name` undefined: the list): repos/{owner}/{repo}/actions/secrets/{name}, orgs/{org}/actions/variables… */
export function actionsPath(segments: string[], what: ActionsValue, name?: string): string {
  return apiPath(...segments, 'actions', `${what}s`, ...(name === undefined ? [] : [name]));
}

/** The description field of a secret or a variable: where the release has it (DESCRIPTIONS), at most 4096 characters. */
export function descriptionField(description: string): FieldSpec {
  return only(DESCRIPTIONS, text('description', { title: 'Description', description, maxLength: 4096 }));
}

/**
 * The names every release accepts for a secret or a variable (services/secrets/validation.go ValidateName:
 * `(?i)^[A-Z_][A-Z0-9_]*$`, not `(?i)^GIT(EA|HUB)_`), written upper-case: the server stores them upper-cased
 * (models/secret/secret.go, models/actions/variable.go `strings.ToUpper`), so a lower-case name would never
 * match what it lists. Release-dependent refusals (CI, FORGEJO_) are checked when planning (refusedName).
 */
function actionsNameSchema(what: ActionsValue): ConfigSchema {
  return {
    type: 'string',
    pattern: '^(?!GITEA_|GITHUB_)[A-Z_][A-Z0-9_]*$',
    patternErrorMessage: `must be a valid ${what} name: upper-case letters, digits and "_", not starting with a digit nor with GITEA_ or GITHUB_ (the server stores names upper-cased and refuses those prefixes)`,
  };
}

/** A scope's `secrets` or `variables` section, by name; `about` is what its description says between the names and pruning. */
export function actionsSection(what: ActionsValue, of: 'repository' | 'organisation', about: string): ConfigEntry {
  const key = `${what}s`;
  return configEntry(
    key,
    byName(
      {
        title: `Actions ${key}`,
        description: `Actions ${key} of the ${of}, by name (upper-case)${about} With policy.prune containing "${key}", ${key} of the ${of} not listed here are deleted. See docs/kinds/${key}.md.`,
      },
      actionsNameSchema(what),
      `actions_${what}`,
      { droppable: of === 'repository' },
    ),
  );
}

/** Names a release refuses beyond what the schema refuses everywhere (see actionsNameSchema). */
interface NameRule {
  test: RegExp;
  availability: Availability;
  /** Variables only (`envNameCIRegexMatch` of services/actions/variables.go), or secrets too (ValidateName). */
  variablesOnly: boolean;
  why: string;
}

const RULES: readonly NameRule[] = [
  // Gitea v1.22.6 services/actions/variables.go:91, v1.24.7 :88; Forgejo v8.0.0 … v12.0.0 :90-91: `(?i)^CI`.
  { test: /^CI/, availability: { gitea: { since: '1.22', until: '1.24' }, forgejo: { until: '12' } }, variablesOnly: true, why: 'refuses variable names starting with CI' },
  // Forgejo v13.0.0 and v14.0.0 services/actions/variables.go:90, v15.0.3 :83: `(?i)^CI$`.
  { test: /^CI$/, availability: { forgejo: { since: '13' } }, variablesOnly: true, why: 'refuses the variable name CI' },
  // Gitea v1.25.4 services/secrets/validation.go:29: `strings.EqualFold(name, "CI")`, secrets and variables.
  { test: /^CI$/, availability: { gitea: { since: '1.25' } }, variablesOnly: false, why: 'refuses the name CI' },
  // Forgejo v15.0.3 models/secret/secret.go:23: `(?i)^(FORGEJO_|GITEA_|GITHUB_|[0-9])`, secrets and variables.
  { test: /^FORGEJO_/, availability: { forgejo: { since: '15' } }, variablesOnly: false, why: 'refuses names starting with FORGEJO_' },
];

/** Why the server's release refuses this (upper-case) name, or undefined when it takes it. */
export function refusedName(name: string, what: ActionsValue, server: ServerInfo | undefined): string | undefined {
  if (!server) return undefined;
  const rule = RULES.find((r) => (what === 'variable' || !r.variablesOnly) && r.test.test(name) && serverHas(server, r.availability));
  return rule ? `${what} name "${name}": ${describeServer(server)} ${rule.why} (400 from the server): choose another name` : undefined;
}

/** The config section of a scope type's entries. */
const SECTION = { repo: 'repos', org: 'orgs', server: '' } as const;

/**
 * A scope's declared secrets or variables as desired objects, each at its config path, with a problem for
 * each name the server's release refuses; `fieldsOf` gives an entry's fields and adds any problems of its own.
 */
export function declaredByName<Entry>(
  declared: Record<string, Entry> | undefined,
  what: ActionsValue,
  scope: Scope,
  server: ServerInfo | undefined,
  fieldsOf: (entry: Entry, path: ConfigPath, problems: Problem[]) => Record<string, unknown>,
): { objects: DesiredObject[]; problems: Problem[] } | undefined {
  if (!declared) return undefined;
  const objects: DesiredObject[] = [];
  const problems: Problem[] = [];
  for (const [name, entry] of Object.entries(declared)) {
    const path = [SECTION[scope.type], scope.name, `${what}s`, name];
    const refused = refusedName(name, what, server);
    if (refused) problems.push({ path, message: refused });
    objects.push({ key: name, fields: fieldsOf(entry, path, problems), path });
  }
  return { objects, problems };
}

/** An exported secret's or variable's description, when the server has a non-empty one. */
export function exportedDescription(fields: Record<string, unknown>): { description?: string } {
  const { description } = fields;
  return typeof description === 'string' && description !== '' ? { description } : {};
}
