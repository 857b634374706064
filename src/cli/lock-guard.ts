/**
 * apply's lock is given back on every exit path (issue 28): a failure (the command's own finally), and
 * SIGINT/SIGTERM in any phase — while the lock is taken, the server read, the plan made, the answer to
 * the confirmation awaited, the duplicates looked for, and while the lock is given back. While changes
 * run, src/cli/interrupt.ts answers the signal (no new change starts) and the lock goes at the end as
 * usual; anywhere else a signal stops the run at once, after the lock is given back (a lock still
 * being taken is waited for first, then given back). A release that fails is an error naming
 * `forgeform unlock ID`, and the exit code says so.
 */
import { LockError, type HeldLock } from '../lock/lock.js';
import { SIGNAL_EXIT, type StopSignal } from './interrupt.js';
import { EXIT, type Output } from './output.js';
import { inert } from '../render/inert.js';

export interface LockState {
  lock?: HeldLock | undefined;
  /** The lock while it is being taken. */
  taking?: Promise<HeldLock> | undefined;
  /** Changes are running: src/cli/interrupt.ts answers signals. */
  changing: boolean;
  /** Gives the lock back (once, shared with the guard's own release): the exit code of a failure, else undefined. Set by guardLock. */
  release?: () => Promise<number | undefined>;
  /** The request count apply says last (every request counted, the lock's release included). */
  tally?: () => string;
}

export interface LockGuard {
  /** Gives the lock back (once): undefined when that went well or there was none, else the exit code of the failure. */
  release(): Promise<number | undefined>;
}

export function guardLock(locked: LockState, out: Output): LockGuard {
  let signal: StopSignal | undefined;
  let releasing: Promise<number | undefined> | undefined;
  const giveBack = async (): Promise<number | undefined> => {
    const lock = locked.lock ?? (await locked.taking?.catch(() => undefined));
    try {
      await lock?.release();
      return undefined;
    } catch (e) {
      out.stderr(out.err.red(`error: ${inert(e instanceof LockError ? e.message : `could not give the apply lock back: ${(e as Error).message}`)}`));
      return EXIT.error;
    }
  };
  const release = () => (releasing ??= giveBack());
  // A second signal while changes run stops at once: src/cli/interrupt.ts gives the lock back through this.
  locked.release = release;
  const signals: StopSignal[] = ['SIGINT', 'SIGTERM'];
  const handler = (received: StopSignal) => {
    if (locked.changing || signal) return;
    signal = received;
    out.stderr(out.err.yellow(`${received} received: stopping${locked.lock || locked.taking ? ' once the apply lock is given back' : ''}.`));
    void release().then((failed) => process.exit(failed ?? SIGNAL_EXIT[received]));
  };
  for (const s of signals) process.on(s, handler);
  return {
    async release() {
      const failed = await release();
      if (signal) return failed ?? SIGNAL_EXIT[signal];
      for (const s of signals) process.off(s, handler);
      return failed;
    },
  };
}
