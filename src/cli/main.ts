#!/usr/bin/env node
import { Command, Option } from 'commander';
import { VERSION } from '../version.js';
import { applyCommand } from './commands/apply.js';
import { exportCommand } from './commands/export.js';
import { planCommand } from './commands/plan.js';
import { load } from './context.js';
import { EXIT, Output, UserError } from './output.js';

const out = new Output();
const collect = (v: string, prev: string[] = []) => [...prev, v];

function serverOptions(cmd: Command): Command {
  return cmd
    .option('--url <url>', 'server URL (env FORGEFORM_URL, else server.url of the config)')
    .option('--token-file <file>', 'read the API token from a file (else env FORGEFORM_TOKEN, or FORGEFORM_USERNAME + FORGEFORM_PASSWORD)')
    .option('--insecure-http', 'allow plain http to a host other than loopback')
    .option('--concurrency <n>', 'requests in flight at most', '8')
    .option('--timeout <seconds>', 'time limit of one request attempt', '30')
    .option('--retries <n>', 'how often a failed request is sent again when that is safe (reads: 5 times as often; default 3)');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
function run<A extends any[]>(action: (...args: A) => Promise<number>) {
  return async (...args: A) => {
    try {
      process.exitCode = await action(...args);
    } catch (e) {
      if (e instanceof UserError) {
        out.stderr(out.err.red(e.message));
        process.exitCode = e.exitCode;
      } else {
        out.stderr(out.err.red(`forgeform: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`));
        process.exitCode = EXIT.error;
      }
    }
  };
}

const program = new Command('forgeform')
  .description('Configuration as code for Gitea and Forgejo: plan and apply users, webhooks, branch protections and labels.')
  .version(VERSION)
  .showHelpAfterError()
  .addHelpText('after', '\nExit codes: 0 done or no changes; 1 error; 2 changes present (plan --detailed-exitcode); 3 unsafe plan refused.');

program
  .command('validate')
  .description('check the config files against the schema, without contacting the server')
  .option('-c, --config <path>', 'config file or directory (repeatable; default forgeform.yaml)', collect)
  .action(
    run(async (opts: { config?: string[] }) => {
      const loaded = await load(opts.config, out);
      out.stdout(`The configuration is valid (${loaded.files.join(', ')}).`);
      return EXIT.ok;
    }),
  );

serverOptions(
  program
    .command('plan')
    .description('show what apply would change on the server')
    .option('-c, --config <path>', 'config file or directory (repeatable; default forgeform.yaml)', collect)
    .option('--out <file>', 'save the plan, to apply exactly it later')
    .addOption(new Option('--format <format>', 'output format').choices(['text', 'markdown', 'json']).default('text'))
    .option('--detailed-exitcode', 'exit 2 when there are changes, 0 when none')
    .option('--sync-write-only', 'send write-only fields (never returned by the server) to every declared object')
    .option('--rotate-secrets', 'send secrets again; replace objects whose secret cannot be edited')
    .option('--target <selector>', 'only these: repo:OWNER/NAME, org:NAME, user:NAME, hook:URL or runner:NAME, globs allowed (repeatable)', collect),
).action(run(async (opts) => planCommand(opts, out)));

serverOptions(
  program
    .command('apply')
    .description('make the changes of a plan (computed now, or saved with plan --out)')
    .argument('[planfile]', 'a plan saved with plan --out')
    .option('-c, --config <path>', 'config file or directory (repeatable; default forgeform.yaml)', collect)
    .option('-y, --yes', 'do not ask for confirmation')
    .option('--force', 'apply a plan that policy or a safety check marked unsafe')
    .option('--sync-write-only', 'send write-only fields (never returned by the server) to every declared object')
    .option('--rotate-secrets', 'send secrets again; replace objects whose secret cannot be edited')
    .addOption(new Option('--format <format>', 'format of the plan shown first').choices(['text', 'markdown', 'json']).default('text'))
    .option('--target <selector>', 'only these: repo:OWNER/NAME, org:NAME, user:NAME, hook:URL or runner:NAME, globs allowed (repeatable)', collect),
).action(run(async (planFile: string | undefined, opts) => applyCommand(planFile, opts, out)));

serverOptions(
  program
    .command('export')
    .description('write the live state of repositories, organisations, users, admin webhooks and runners as a forgeform config')
    .option('--include <selector>', 'a kind (labels, branch_protections; users, orgs, hooks, runners), OWNER/REPO (globs allowed) or ORG (repeatable)', collect)
    .option('-o, --output <file>', 'write to a file instead of stdout'),
).action(run(async (opts) => exportCommand(opts, out)));

program
  .command('sandbox')
  .description('start a built-in Gitea-compatible server on loopback, for trying and testing')
  .option('--port <n>', 'port (0 = any free port)', '0')
  .option('--seed <file>', 'YAML file with the initial users, orgs, repos, labels and protections')
  .option('--state <file>', 'keep the state in this JSON file across restarts')
  .option('--token <token>', 'the site administrator token (default: random)')
  .option('--latency <ms>', 'delay every response', '0')
  .option('--fault-rate <p>', 'answer this share of requests with 5xx, 429 or a dropped connection', '0')
  .action(
    run(async (opts: { port: string; seed?: string; state?: string; token?: string; latency: string; faultRate: string }) => {
      const { runSandboxCommand } = await import('../sandbox/cli.js');
      await runSandboxCommand({
        port: Number(opts.port),
        ...(opts.seed ? { seed: opts.seed } : {}),
        ...(opts.state ? { state: opts.state } : {}),
        ...(opts.token ? { token: opts.token } : {}),
        latency: Number(opts.latency),
        faultRate: Number(opts.faultRate),
      });
      return EXIT.ok;
    }),
  );

await program.parseAsync(process.argv);
