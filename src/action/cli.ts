import { spawn } from 'node:child_process';

/** Set in the environment of the child process: the bundle then runs as the forgeform CLI. */
export const CLI_ROLE = 'FORGEFORM_ACTION_ROLE';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export const CLI_EXIT = { ok: 0, error: 1, changes: 2, unsafe: 3, rehearsalFailed: 4 } as const;

/**
 * Variables the CLI never gets from the action: the action's own inputs (tokens among them), every
 * credential forgeform reads from the environment (the action hands its token over in a file, so
 * that no `${NAME}` of a configuration can reach it), and the runner's own tokens.
 */
const WITHHELD = [/^INPUT_/, /^FORGEFORM_(TOKEN|USERNAME|PASSWORD|URL)$/, /^ACTIONS_(RUNTIME|ID_TOKEN_REQUEST|CACHE)_/, /^(GITHUB|GITEA|FORGEJO)_TOKEN$/];

/** The environment of the CLI: the runner's, minus {@link WITHHELD}, plus `extraEnv`. */
export function cliEnvironment(extraEnv: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!WITHHELD.some((re) => re.test(k))) env[k] = v;
  return Object.assign(env, extraEnv, { [CLI_ROLE]: 'cli', NO_COLOR: '1' });
}

/** Runs `forgeform ARGS` from this same bundle (`process.argv[1]`). */
export function runCli(args: string[], opts: { cwd: string; extraEnv?: Record<string, string> }): Promise<CliRun> {
  const env = cliEnvironment(opts.extraEnv);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [process.argv[1]!, ...args], { cwd: opts.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? CLI_EXIT.error, stdout, stderr }));
  });
}
