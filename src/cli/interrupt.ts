/**
 * SIGINT and SIGTERM during apply. The first signal stops new changes from starting and lets the
 * ones already started finish — all of their requests, so that a user created is also given the
 * edit that bars it from signing in. The second signal stops at once. Either way the exit code is
 * the shell's 128 + signal number.
 */
import type { ChangeResult } from '../apply/executor.js';
import type { Output } from './output.js';

export type StopSignal = 'SIGINT' | 'SIGTERM';

export const SIGNAL_EXIT: Record<StopSignal, number> = { SIGINT: 130, SIGTERM: 143 };

/** The skip reason of a change that an interrupt kept from starting. */
export const NOT_STARTED = 'not started: apply was interrupted';

export interface StopSwitch {
  /** The first signal received, if any: from then on no change starts. */
  readonly signal: StopSignal | undefined;
  /** Restores the default handling (the process ends on a signal). */
  dispose(): void;
}

/**
 * `stopNow` runs on the second signal: it prints what was done and gives the apply lock back, and
 * says the exit code (issue 28: a second signal still releases the lock and prints the result lines).
 * A third signal ends the process at once.
 */
export function stopOnSignals(out: Output, stopNow?: (first: StopSignal) => Promise<number>): StopSwitch {
  let signal: StopSignal | undefined;
  let stopping = false;
  const handler = (received: StopSignal) => {
    if (signal && stopping) {
      out.stderr(out.err.red(`${received} a third time: exiting now. The apply lock may be left behind: forgeform unlock shows it, and removes it with its id.`));
      process.exit(SIGNAL_EXIT[signal]);
    }
    if (signal) {
      stopping = true;
      const first = signal;
      out.stderr(out.err.red(`${received} again: stopping now${stopNow ? ', once the apply lock is given back' : ''}. Changes in progress may be left incomplete; run apply again to finish them.`));
      if (!stopNow) process.exit(SIGNAL_EXIT[first]);
      else void stopNow(first).then((code) => process.exit(code), () => process.exit(SIGNAL_EXIT[first]));
      return;
    }
    signal = received;
    out.stderr(out.err.yellow(`${received} received: finishing the changes in progress and starting no new one (${received === 'SIGINT' ? 'Ctrl-C' : 'send it'} again to stop at once).`));
  };
  const signals: StopSignal[] = ['SIGINT', 'SIGTERM'];
  for (const s of signals) process.on(s, handler);
  return {
    get signal() {
      return signal;
    },
    dispose() {
      for (const s of signals) process.off(s, handler);
    },
  };
}

/** The closing line of an interrupted apply: what was done, and what was not. */
export function interruptedSummary(signal: StopSignal, results: ChangeResult[]): string {
  const notStarted = results.filter((r) => r.outcome === 'skipped' && r.error === NOT_STARTED).length;
  const done = results.filter((r) => r.outcome === 'done').length;
  const failed = results.filter((r) => r.outcome === 'failed').length;
  const otherSkips = results.length - done - failed - notStarted;
  return `Interrupted by ${signal}: ${done} change${done === 1 ? '' : 's'} done, ${failed} failed, ${notStarted} not started${otherSkips ? `, ${otherSkips} skipped` : ''}. Run apply again to finish.`;
}

/** The closing line of an apply stopped by a second signal: what had ended, and that the rest may be incomplete. */
export function stoppedSummary(first: StopSignal, ended: ChangeResult[], planned: number): string {
  const done = ended.filter((r) => r.outcome === 'done').length;
  const failed = ended.filter((r) => r.outcome === 'failed').length;
  const open = planned - ended.length;
  return `Stopped by a second ${first}: ${done} change${done === 1 ? '' : 's'} done, ${failed} failed, ${open} not finished (those in progress may be left incomplete). Run apply again to finish.`;
}
