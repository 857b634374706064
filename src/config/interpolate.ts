import { literalTemplate, reservedVariableReason, type SecretTemplates } from '../secret.js';
import type { ConfigProblem } from './errors.js';
import { quoted } from './excerpt.js';
import { MAX_CONFIG_BYTES, megabytes } from './limits.js';
import { forEachStringValue, position, type YamlSource } from './source.js';
import type { ConfigPath } from './types.js';

// An unterminated "${" takes the rest of the string (group 2 empty): matching it only up to the "${" made every later
// "${" scan the rest again, quadratic (a string of 40,000 "${" took 3 s).
const TOKEN = /\$\$\{|\$\{([^}]*)(\}|$)/g;
const REFERENCE = /^(?:env:)?([A-Za-z_][A-Za-z0-9_]*)$/;

export interface InterpolationResult {
  /** The JS copy with every reference replaced. */
  data: unknown;
  problems: ConfigProblem[];
  /** Paths (JSON-encoded) of values that hold a substituted variable: masked in messages. */
  sensitive: Set<string>;
  /** Paths (JSON-encoded) of values with a reference that could not be substituted (already reported). */
  failed: Set<string>;
}

/**
 * Replaces `${NAME}` and `${env:NAME}` in the string values of `data` (the JS copy of `source`), reading `env`.
 * `$${` stands for a literal `${`. Keys are not interpolated. An unset variable is a problem at the scalar, never an
 * empty string. Every substituted value is added to `secrets` (empty values excepted: they cannot be masked), and its
 * template (the text with ${NAME} references) to `templates`: a kind wraps a sensitive value in a Secret that carries it.
 */
export function interpolate(
  source: YamlSource,
  data: unknown,
  env: NodeJS.ProcessEnv,
  secrets: Map<string, string>,
  templates?: SecretTemplates,
  /** validate without the environment: an unset variable is collected in `unset`, not a problem (its value is not checked). */
  offline?: { unset: Set<string> },
  /**
   * How many characters the substituted values may add, all files together (issue 28: 40,000 `${BIG}` of 100 KB
   * made a 4 GB string and a V8 out-of-memory abort): the config's size limit holds once its variables are read.
   * Past it, one problem at the value that crossed it, and nothing more is substituted.
   */
  budget: { left: number; exceeded?: boolean } = { left: MAX_CONFIG_BYTES },
): InterpolationResult {
  const problems: ConfigProblem[] = [];
  const sensitive = new Set<string>();
  const failed = new Set<string>();
  const holder = { root: data };
  forEachStringValue(source, data, (value, path, offset) => {
    if (!value.includes('${')) return;
    let substituted = false;
    // The same text in the one form a saved plan's {"$env": …} understands: ${env:NAME} becomes ${NAME}.
    let template = '';
    let last = 0;
    const out = value.replace(TOKEN, (token: string, inner: string | undefined, close: string | undefined, at: number) => {
      template += literalTemplate(value.slice(last, at));
      last = at + token.length;
      if (token === '$${') {
        template += token;
        return '${';
      }
      const problem = (message: string) => {
        problems.push({ ...position(source, offset), message });
        failed.add(JSON.stringify(path));
      };
      if (inner === undefined || close === '') {
        problem(`unterminated "\${" in a string: write \${NAME} to read an environment variable, or $\${ for a literal "\${"`);
        return token;
      }
      const m = REFERENCE.exec(inner);
      if (!m) {
        problem(`invalid reference ${quoted(token)}: expected \${NAME} or \${env:NAME} (write $\${ for a literal "\${")`);
        return token;
      }
      const name = m[1]!;
      // Refused whether it is set or not: validate runs offline, and a config must not depend on where it runs.
      const reserved = reservedVariableReason(name);
      if (reserved) {
        problem(reserved);
        return token;
      }
      const v = env[name];
      if (v !== undefined && !budget.exceeded && (budget.left -= v.length - token.length) < 0) {
        budget.exceeded = true;
        problem(`\${${name}} here brings the config past ${megabytes(MAX_CONFIG_BYTES)} once its variables are read (a config may hold at most ${megabytes(MAX_CONFIG_BYTES)} in all, variables included): read large values from fewer places`);
        return token;
      }
      if (budget.exceeded) {
        failed.add(JSON.stringify(path));
        return token;
      }
      if (v === undefined) {
        if (offline) {
          offline.unset.add(name);
          failed.add(JSON.stringify(path));
        } else problem(`environment variable ${name} is not set`);
        return token;
      }
      substituted = true;
      template += `\${${name}}`;
      if (v !== '') secrets.set(name, v);
      return v;
    });
    template += literalTemplate(value.slice(last));
    if (substituted) {
      sensitive.add(JSON.stringify(path));
      templates?.record(position(source, offset), out, template, path);
    }
    if (out !== value) setAt(holder, path, out);
  });
  return { data: holder.root, problems, sensitive, failed };
}

function setAt(holder: { root: unknown }, path: ConfigPath, value: string): void {
  if (path.length === 0) {
    holder.root = value;
    return;
  }
  // Own properties only: a key named __proto__ must never reach a prototype.
  const isOwner = (n: unknown, seg: string | number): n is Record<string | number, unknown> =>
    n !== null && typeof n === 'object' && Object.hasOwn(n, seg);
  let node: unknown = holder.root;
  for (const seg of path.slice(0, -1)) {
    if (!isOwner(node, seg)) return;
    node = node[seg];
  }
  const last = path[path.length - 1]!;
  if (isOwner(node, last)) node[last] = value;
}
