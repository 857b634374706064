import { describeServer, formatDiagnostic } from '../../model/index.js';
import { assumedServer, load } from '../context.js';
import { EXIT, UserError, type Output } from '../output.js';

export interface ValidateOptions {
  config?: string[];
  serverVersion?: string;
  requireEnv?: boolean;
}

/**
 * The config against the schema, and with --server-version against what that release has, as plan
 * would find it after its preflight; offline. Loads neither the planner nor the HTTP client (a test
 * of the import graph keeps it so), and the kinds only for --server-version: checking a config must
 * stay quick in an editor or a hook.
 */
export async function validateCommand(opts: ValidateOptions, out: Output): Promise<number> {
  const server = assumedServer(opts);
  // Offline (an editor, a pre-commit hook) the secrets are usually not in the environment: references
  // are checked (their syntax), their values only with --require-env, as plan always does.
  const offline = opts.requireEnv ? undefined : { unset: new Set<string>() };
  const loaded = await load(opts.config, out, offline);
  const files = loaded.files.join(', ');
  if (offline?.unset.size)
    out.stderr(`Note: not set, so their values were not checked (plan needs them; --require-env checks them): ${[...offline.unset].sort().join(', ')}`);
  if (server) {
    const [{ kinds }, { releaseProblems }] = await Promise.all([import('../../kinds/index.js'), import('../../plan/field-rules.js')]);
    const unavailable = releaseProblems(kinds, loaded, server);
    if (unavailable.length) throw new UserError(`${unavailable.map(formatDiagnostic).join('\n')}\nThe configuration is not valid for ${describeServer(server)} (${files}).`);
    out.stdout(`The configuration is valid for ${describeServer(server)} (${files}).`);
    return EXIT.ok;
  }
  out.stdout(`The configuration is valid (${files}).`);
  return EXIT.ok;
}
