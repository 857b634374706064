import { describeServer, serverHas, type Availability, type ServerInfo } from '../../model/index.js';

/** Names a release refuses beyond what the schema refuses everywhere (see actionsNameSchema in fields.ts). */
interface NameRule {
  test: RegExp;
  availability: Availability;
  /** Variables only (`envNameCIRegexMatch` of services/actions/variables.go), or secrets too (ValidateName). */
  variablesOnly: boolean;
  why: string;
}

const RULES: NameRule[] = [
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
export function refusedName(name: string, what: 'secret' | 'variable', server: ServerInfo | undefined): string | undefined {
  if (!server) return undefined;
  const rule = RULES.find((r) => (what === 'variable' || !r.variablesOnly) && r.test.test(name) && serverHas(server, r.availability));
  return rule ? `${what} name "${name}": ${describeServer(server)} ${rule.why} (400 from the server): choose another name` : undefined;
}
