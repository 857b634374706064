import { Command, CommanderError, Option } from 'commander';
import { VERSION } from '../version.js';
import { PLAN_FORMATS } from '../render/formats.js';
import { debugWanted, describeFailure, stackOf } from './failure.js';
import { EXIT, Output, UserError } from './output.js';
import { processIo, type CliIo, type TextSink } from './io.js';
import { withSecretRegistry } from '../secret.js';

const collect = (v: string, prev: string[] = []) => [...prev, v];

function serverOptions(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'server URL (else env FORGEFORM_URL; server.url of the config only names it and must agree)')
    .option('--token-file <file>', 'read the API token from a file (else env FORGEFORM_TOKEN, or FORGEFORM_USERNAME + FORGEFORM_PASSWORD)')
    .option('--insecure-http', 'allow plain http to a host other than loopback')
    .option('--concurrency <n>', 'requests in flight at most (1 to 64)', '8')
    .option('--timeout <seconds>', 'time limit of one request attempt', '30')
    .option('--retries <n>', 'how often a failed request is sent again when that is safe (reads and 429/503: 5 times as often; default 3, at most 10)')
    .option('--read-deadline <seconds>', 'time limit of all the reads of a run together', '600')
    .option('--server-version <fork@release>', 'the release the server runs (gitea@1.25, forgejo@11.0.2) instead of asking it (for a proxy that hides /version)');
}

/** A numeric option as given; a word where a number is due is an error naming the option. */
function numberOption(value: string, option: string): number {
  const n = value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(n)) throw new UserError(`${option} must be a number, got "${value}"`);
  return n;
}

/** Prints a failure as one message (its stack only with --debug or FORGEFORM_DEBUG=1); returns the exit code. */
export function reportFailure(e: unknown, out: Output, argv: string[] = process.argv): number {
  const { message, exitCode } = describeFailure(e);
  out.stderr(out.err.red(message));
  if (debugWanted(argv, out.env)) out.stderr(stackOf(e));
  return exitCode;
}

/** The lists of kinds the help texts name, from the registry: export --include's kinds, --target's selectors. */
interface HelpLists {
  include: string;
  target: string;
}

/** What the options say before the registry is loaded: shown never (see runCommand), since commander prints nothing of them then. */
const UNLOADED: HelpLists = { include: 'see --help', target: 'see --help' };

/**
 * The registry's lists for the help texts, loaded only when commander prints help (loading every kind
 * costs tens of milliseconds at each start). --include: the kinds inside organisations and
 * repositories, then those exported with their scopes (repos: pull mirrors), in registry order; then,
 * after a semicolon, the server-wide ones. --target: every selector type.
 */
async function helpLists(): Promise<HelpLists> {
  const [{ kinds }, { exportable, exportedServerWide, selectorList, targetTypes }] = await Promise.all([import('../kinds/index.js'), import('../model/index.js')]);
  const keys = (list: typeof kinds) => [...new Set(list.map((k) => k.configKey))].join(', ');
  const exported = kinds.filter(exportable);
  const inScopes = exported.filter((k) => k.scopeType !== 'server');
  const withScopes = exported.filter((k) => k.scopeType === 'server' && !exportedServerWide(k));
  const serverWide = exported.filter(exportedServerWide);
  return { include: `${keys([...inScopes, ...withScopes])}; ${keys(serverWide)}`, target: selectorList(targetTypes(kinds)) };
}

/** Wraps a command's action: its exit code, or the exit code of its failure, goes to `setCode`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Runner = <A extends any[]>(action: (...args: A) => Promise<number>) => (...args: A) => Promise<void>;

/**
 * The commands, writing through `out`; `setCode` receives each action's exit code. Each action
 * imports its command when it runs: `--version`, `--help` and `validate` then load neither the
 * planner, the kinds (but for validate --server-version) nor the HTTP client (most of the startup CPU).
 */
function buildProgram(out: Output, argv: string[], setCode: (code: number) => void, lists: HelpLists): Command {
  const run: Runner =
    (action) =>
    async (...args) => {
      try {
        setCode(await action(...args));
      } catch (e) {
        setCode(reportFailure(e, out, argv));
      }
    };

  const program = new Command('forgeform')
    .description('Configuration as code for Gitea and Forgejo: plan and apply users, webhooks, branch protections and labels.')
    .version(VERSION)
    .showHelpAfterError()
    .option('--debug', 'print the stack trace of an error (also FORGEFORM_DEBUG=1)')
    .addHelpText('after', '\nExit codes: 0 done or no changes; 1 error; 2 changes present (plan --detailed-exitcode); 3 unsafe plan refused; 4 the rehearsal failed (plan --rehearse).');
  addConfigCommands(program, run, out, lists);
  addShowCommand(program, run, out);
  addServerCommands(program, run, out, lists);
  addSandboxCommand(program, run);
  return program;
}

/** validate, plan and apply: the commands that read a configuration. */
function addConfigCommands(program: Command, run: Runner, out: Output, lists: HelpLists): void {
  program
    .command('validate')
    .description('check the config files against the schema, without contacting the server')
    .option('-c, --config <path>', 'config file or directory (repeatable; default forgeform.yaml)', collect)
    .option('--server-version <fork@release>', 'also check that this release (gitea@1.25, forgejo@11) has every kind and field the config uses, as plan does')
    .option('--require-env', 'fail on an environment variable the config reads that is not set (default: check only how it is referenced)')
    .action(run(async (opts) => (await import('./commands/validate.js')).validateCommand(opts, out)));

  serverOptions(
    program
      .command('plan')
      .description('show what apply would change on the server')
      .option('-c, --config <path>', 'config file or directory (repeatable; default forgeform.yaml)', collect)
      .option('--out <file>', 'save the plan, to apply exactly it later')
      .addOption(new Option('--format <format>', 'output format').choices(PLAN_FORMATS).default('text'))
      .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none')
      .option('--sync-write-only', 'send write-only fields (never returned by the server) to every declared object')
      .option('--rotate-secrets', 'send secrets again; replace objects whose secret cannot be edited')
      .option('--target <selector>', `only these: ${lists.target}, globs allowed (repeatable)`, collect)
      .option('--shard <k/n>', 'only the K-th of N parts of the configuration (by owner; server-wide objects in part 1), for N parallel CI jobs')
      .option('--changed-only <ref>', 'only the organisations, repositories and server-wide sections whose configuration changed since the git ref REF')
      .option('--explain', 'show where the configuration sets each value (file:line:col, and the glob it comes from)')
      .option('--rehearse', 'apply the plan to an in-process copy of what it read (same release), plan again there, and report; exit 4 when it fails'),
  ).action(run(async (opts) => (await import('./commands/plan.js')).planCommand(opts, out)));

  serverOptions(
    program
      .command('apply')
      .description('make the changes of a plan (computed now, or saved with plan --out)')
      .argument('[planfile]', 'a plan saved with plan --out')
      .option('-c, --config <path>', 'config file or directory (repeatable; default forgeform.yaml)', collect)
      .option('-y, --yes', 'do not ask for confirmation')
      .option('--force', 'apply a plan that policy or a safety check marked unsafe')
      .option('--lock-timeout <duration>', 'wait this long (30s, 5m) for another apply holding the server to end; 0: exit 1 at once', '0s')
      .option('--lock-stale <duration>', 'a lock not renewed for this long belongs to a run that died and is taken over', '10m')
      .option('--no-lock', 'take no lock on the server (only when nothing else can apply to it at the same time)')
      .option('--sync-write-only', 'send write-only fields (never returned by the server) to every declared object')
      .option('--rotate-secrets', 'send secrets again; replace objects whose secret cannot be edited')
      .addOption(new Option('--format <format>', 'format of the plan shown first').choices(PLAN_FORMATS).default('text'))
      .option('--target <selector>', `only these: ${lists.target}, globs allowed (repeatable)`, collect)
      .option('--shard <k/n>', 'only the K-th of N parts of the configuration (by owner; server-wide objects in part 1), for N parallel CI jobs')
      .option('--changed-only <ref>', 'only the organisations, repositories and server-wide sections whose configuration changed since the git ref REF'),
  ).action(run(async (planFile: string | undefined, opts) => (await import('./commands/apply.js')).applyCommand(planFile, opts, out)));
}

/** show: a saved plan, rendered without a server. */
function addShowCommand(program: Command, run: Runner, out: Output): void {
  program
    .command('show')
    .description('print a plan saved with plan --out, in any format, without contacting the server')
    .argument('<planfile>', 'a plan saved with plan --out')
    .addOption(new Option('--format <format>', 'output format (json: the plan file itself)').choices(PLAN_FORMATS).default('text'))
    .action(run(async (planFile: string, opts) => (await import('./commands/show.js')).showCommand(planFile, opts, out)));
}

/** unlock and export: the commands that only talk to a server. */
function addServerCommands(program: Command, run: Runner, out: Output, lists: HelpLists): void {
  serverOptions(
    program
      .command('unlock')
      .description("remove the apply lock of a run that can no longer remove it (its ID is in apply's message); without ID, show who holds the server")
      .argument('[id]', 'the lock id that apply named')
      .option('--lock-name <name>', "the lock's organisation, when the configuration names one (policy.apply_lock)"),
  ).action(run(async (id: string | undefined, opts) => (await import('./commands/unlock.js')).unlockCommand(id, opts, out)));

  serverOptions(
    program
      .command('export')
      .description('write the live state of repositories, organisations, users, admin webhooks and runners as a forgeform config')
      .option('--include <selector>', `a kind (${lists.include}), OWNER/REPO (globs allowed) or ORG (repeatable); none: everything the token can read`, collect)
      .option('-o, --output <file>', 'write to a file instead of stdout (a new file: an existing one only with --force)')
      .option('--force', 'replace the file -o names when it exists')
      .option('--lock-name <name>', "the apply lock's organisation, never exported, when the configuration names one (policy.apply_lock)")
      .addHelpText(
        'after',
        '\nWithout --include, export writes every kind in every organisation and repository the token can read, and, for a site\nadministrator, users (with their badges and SSH keys: two more requests per user), organisations, admin webhooks and runners.\nA repository that is a pull mirror gets its mirror: source and interval (repos), never its credentials.',
      ),
  ).action(run(async (opts) => (await import('./commands/export.js')).exportCommand(opts, out)));
}

function addSandboxCommand(program: Command, run: Runner): void {
  program
    .command('sandbox')
    .description('start a built-in Gitea-compatible server on loopback, for trying and testing')
    .option('--port <n>', 'port (0 = any free port)', '0')
    .option('--seed <file>', 'YAML file with the initial users, orgs, repos, labels and protections')
    .option('--state <file>', 'keep the state in this JSON file across restarts')
    .option('--token <token>', 'the site administrator token (default: random)')
    .option('--latency <ms>', 'delay every response', '0')
    .option('--fault-rate <p>', 'answer this share of requests with 5xx, 429 or a dropped connection', '0')
    .option('--flavour <fork@release>', 'play this release: gitea@1.21 … gitea@1.26, forgejo@7, forgejo@11, forgejo@15 (default gitea@1.26; gitea@main = Gitea\'s development branch)')
    // The first spelling of --flavour, kept working for the scripts and docs that use it.
    .addOption(new Option('--flavor <fork@release>').hideHelp())
    .option('--federation', 'serve /nodeinfo as a server with federation enabled')
    .option('--timezone <zone>', "the server's time zone (IANA name, default UTC): due dates are answered in it")
    .action(
        run(async (opts: { port: string; seed?: string; state?: string; token?: string; latency: string; faultRate: string; flavour?: string; flavor?: string; federation?: boolean; timezone?: string }) => {
        const { runSandboxCommand, SandboxCommandError } = await import('../sandbox/cli.js');
        const options = {
          port: numberOption(opts.port, '--port'),
          ...(opts.seed ? { seed: opts.seed } : {}),
          ...(opts.state ? { state: opts.state } : {}),
          ...(opts.token ? { token: opts.token } : {}),
          ...((opts.flavour ?? opts.flavor) ? { flavour: opts.flavour ?? opts.flavor } : {}),
          ...(opts.federation ? { federation: true } : {}),
          ...(opts.timezone ? { timezone: opts.timezone } : {}),
          latency: numberOption(opts.latency, '--latency'),
          faultRate: numberOption(opts.faultRate, '--fault-rate'),
        };
        try {
          await runSandboxCommand(options);
        } catch (e) {
          if (e instanceof SandboxCommandError) throw new UserError(`forgeform sandbox: ${e.message}`);
          throw e;
        }
        return EXIT.ok;
      }),
    );
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs one forgeform command line (without "node main.js") as the CLI does, and returns its exit
 * code instead of exiting. `io` replaces the process's streams and environment for this run (an
 * in-process run of the tests: the environment given is the whole of it, as a child's would be);
 * with `capture`, what it prints is returned rather than written. Nothing of the run outlives it:
 * what it left open (connections, timers) is closed before it returns, and the secrets it met are
 * its own (withSecretRegistry: `secretValues` receives them).
 */
export async function runCommand(args: string[], opts: { capture?: boolean; io?: Partial<CliIo>; secretValues?: Set<string> } = {}): Promise<CommandResult> {
  const captured = { stdout: '', stderr: '' };
  const sink = (name: 'stdout' | 'stderr'): TextSink => ({
    write: (text: string) => {
      captured[name] += text;
      return true;
    },
  });
  const io: CliIo = { ...processIo(), ...(opts.capture ? { stdout: sink('stdout'), stderr: sink('stderr') } : {}), ...opts.io };
  const code = await withSecretRegistry(() => parseCommand(['node', 'forgeform', ...args], io), opts.secretValues);
  return { code, ...captured };
}

/**
 * Parses and runs one command line; returns its exit code. It is parsed first without the registry's
 * lists, commander's own output (help, a usage error, the version) held back: when commander answers
 * with help or an error (its options' texts shown, no action run), it is parsed again with the lists.
 */
async function parseCommand(argv: string[], io: CliIo, lists?: HelpLists): Promise<number> {
  const held: [TextSink, string][] = [];
  const write = (stream: TextSink) => (s: string) => (lists ? stream.write(s) : held.push([stream, s]));
  const out = new Output(io);
  let code: number = EXIT.ok;
  try {
    const program = buildProgram(out, argv, (c) => (code = c), lists ?? UNLOADED);
    // Commander's own errors (an unknown option) exit through the override as well; each command writes through `write`.
    for (const cmd of [program, ...program.commands]) cmd.exitOverride().configureOutput({ writeOut: write(io.stdout), writeErr: write(io.stderr) });
    await program.parseAsync(argv);
  } catch (e) {
    if (!(e instanceof CommanderError)) return reportFailure(e, out, argv);
    if (!lists && e.code !== 'commander.version') return parseCommand(argv, io, await helpLists());
    code = e.exitCode;
  } finally {
    out.end();
  }
  for (const [stream, s] of held) stream.write(s);
  return code;
}
