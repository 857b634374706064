import { checkLockName, describeHolder, unlock, unlockHint } from '../../lock/lock.js';
import { connect, type ServerOptions } from '../context.js';
import { EXIT, UserError, type Output } from '../output.js';
import { inert } from '../../render/inert.js';

/**
 * forgeform unlock [ID]: removes the lock a run left behind (killed at once, its host gone), as
 * Terraform's force-unlock does: only with the lock's id, so that a lock taken by another run since
 * it was looked at is never removed.
 */
export async function unlockCommand(id: string | undefined, opts: ServerOptions & { lockName?: string }, out: Output): Promise<number> {
  const bad = opts.lockName === undefined ? undefined : checkLockName(opts.lockName);
  if (bad) throw new UserError(bad.replace('policy.apply_lock', '--lock-name'));
  const { client } = await connect(opts, out);
  const { found, removed } = await unlock(client, id, opts.lockName);
  if (found.state === 'none') {
    out.stdout('The server is not locked: no apply holds it.\n');
    return EXIT.ok;
  }
  if (found.state === 'foreign') {
    if (removed && found.removable) {
      out.stdout(`Removed the apply lock ${describeHolder(found.removable)}.\n`);
      return EXIT.ok;
    }
    throw new UserError(`${found.what}: forgeform leaves it alone. To resolve it, ${found.fix}`);
  }
  const holder = found.holder;
  if (removed) {
    out.stdout(`Removed the apply lock ${describeHolder(holder)}.\n`);
    return EXIT.ok;
  }
  if (id === undefined) {
    out.stdout(`The server is locked: ${describeHolder(holder)}.\nIf no apply is running, remove the lock with: ${unlockHint(holder.id, opts.lockName)}\n`);
    return EXIT.error;
  }
  throw new UserError(`the lock's id is ${holder.id}, not ${inert(id)}: it is ${describeHolder(holder)}; nothing was removed`);
}
