/**
 * The built CLI run inside the test's process (vitest's `forks` pool: each test file is a process of
 * its own), through its runCommand with an io of the run's own: its arguments, the whole environment
 * it sees (cliEnv's, never merged with this process's), a working directory, stdin. What it prints is
 * captured and its exit code returned, as a child's would be; starting a Node process per command was
 * most of the end-to-end suite's time.
 *
 * What a process gives for free is checked instead: each run leaves nothing behind that the next one
 * (or the test) would see — no exit code set, the environment and working directory as they were, no
 * signal or crash handler, no timer and no connection still open — and two runs never overlap (the
 * working directory is the process's). A test that needs the process itself passes `process: true`
 * (test/e2e/helpers.ts).
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type * as Program from '../../src/cli/program.js';

/** The CLI as `npm run build` left it (tsc's output beside the bundle: the same code, importable). */
const BUILT_PROGRAM = new URL('../../dist/cli/program.js', import.meta.url).href;

export interface InProcessResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A timer as node:timers makes it: `_destroyed` once it fired (a timeout) or was cleared. */
interface TimerResource {
  _destroyed?: boolean;
  hasRef(): boolean;
}

/**
 * What a process does after its command returned: it waits for what holds it (a request still in
 * flight when the command failed, with its timeout timer), and what that prints is still its output. Bounded: a timer that holds a process this long is a run that does not end.
 */
const SETTLE_MS = 10_000;

async function settle(made: Set<TimerResource>, sockets: Set<Socket>): Promise<void> {
  const until = Date.now() + SETTLE_MS;
  const busy = () => [...made].some((t) => !t._destroyed && t.hasRef()) || openClientSockets().some((s) => !sockets.has(s));
  while (Date.now() < until && busy()) await new Promise((r) => setTimeout(r, 2));
}

/** The timers each run made (and everything they make in turn), by run. */
const madeBy = new AsyncLocalStorage<Set<TimerResource>>();
const timers = createHook({
  init(_id, type, _trigger, resource) {
    if (type === 'Timeout') madeBy.getStore()?.add(resource as TimerResource);
  },
});

const EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'uncaughtException', 'unhandledRejection', 'exit', 'beforeExit', 'warning'] as const;

/** What a run could leave behind in the process, as it is before the run. */
function processState() {
  return {
    exitCode: process.exitCode,
    env: JSON.stringify(process.env),
    listeners: EVENTS.map((e) => `${e}: ${process.listenerCount(e)}`).join(', '),
    sockets: new Set(openClientSockets()),
  };
}

/** Sockets this process opened to a server (the sandbox's side of a connection has `server`), still open. */
function openClientSockets(): Socket[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  return handles.filter((h): h is Socket => h instanceof Socket && !(h as Socket & { server?: unknown }).server && !h.destroyed && h.remotePort !== undefined);
}

/**
 * node:http's cache of the Date header (lib/internal/http.js: a server answering in the run, the
 * rehearsal's copy, arms it), reset a second later by an unref'd timer: the process's, not the run's.
 */
function processCache(t: TimerResource): boolean {
  return (t as TimerResource & { _onTimeout?: { name?: string } })._onTimeout?.name === 'resetCache';
}

/** Everything the run left behind, in words; empty when nothing. */
function leftBehind(before: ReturnType<typeof processState>, cwd: string, made: Set<TimerResource>): string[] {
  const after = processState();
  const found: string[] = [];
  if (after.exitCode !== before.exitCode) found.push(`process.exitCode set to ${after.exitCode}`);
  if (after.env !== before.env) found.push('process.env changed');
  if (process.cwd() !== cwd) found.push(`the working directory changed to ${process.cwd()}`);
  if (after.listeners !== before.listeners) found.push(`process listeners: before ${before.listeners}; after ${after.listeners}`);
  const timersLeft = [...made].filter((t) => !t._destroyed && !processCache(t));
  if (timersLeft.length) found.push(`${timersLeft.length} timer(s) still pending (${timersLeft.filter((t) => !t.hasRef()).length} of them unref'd: a process would drop them, this one would run them)`);
  const socketsLeft = [...after.sockets].filter((s) => !before.sockets.has(s));
  if (socketsLeft.length) found.push(`${socketsLeft.length} connection(s) still open (to port ${socketsLeft.map((s) => s.remotePort).join(', ')})`);
  return found;
}

/** The command line running now, if any. */
const running: { args?: string[] } = {};

/** Runs one command line of the built CLI in this process; `env` is the whole environment it sees. */
export async function runInProcess(args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string | undefined; input?: string | undefined }): Promise<InProcessResult> {
  if (running.args)
    throw new Error(`forgeform ${args.join(' ')} started while forgeform ${running.args.join(' ')} runs in this process: runs at the same time need a process each (process: true)`);
  running.args = args;
  try {
    return await runAlone(args, opts);
  } finally {
    running.args = undefined;
  }
}

async function runAlone(args: string[], opts: { env: NodeJS.ProcessEnv; cwd?: string | undefined; input?: string | undefined }): Promise<InProcessResult> {
  const { runCommand } = (await import(BUILT_PROGRAM)) as typeof Program;
  const home = process.cwd();
  const before = processState();
  const made = new Set<TimerResource>();
  const result: InProcessResult = { code: 0, stdout: '', stderr: '' };
  const sink = (name: 'stdout' | 'stderr') => ({
    write: (text: string) => {
      result[name] += text;
      return true;
    },
  });
  let problems: string[];
  try {
    if (opts.cwd !== undefined) process.chdir(opts.cwd);
    const cwd = process.cwd();
    const stdin = Readable.from(opts.input ? [opts.input] : []);
    timers.enable();
    try {
      const io = { env: opts.env, stdin, stdout: sink('stdout'), stderr: sink('stderr') };
      result.code = (await madeBy.run(made, () => runCommand(args, { io }))).code;
      await settle(made, before.sockets);
    } finally {
      timers.disable();
    }
    problems = leftBehind(before, cwd, made);
  } finally {
    process.chdir(home);
    process.exitCode = before.exitCode;
  }
  if (problems.length) throw new Error(`forgeform ${args.join(' ')} left behind in the process: ${problems.join('; ')}\n${result.stdout}${result.stderr}`);
  return result;
}
