import { describeHolder, LOCK_ORG, unlock } from '../../lock/lock.js';
import { connect, type ServerOptions } from '../context.js';
import { EXIT, UserError, type Output } from '../output.js';

/**
 * forgeform unlock [ID]: removes the lock a run left behind (killed at once, its host gone), as
 * Terraform's force-unlock does: only with the lock's id, so that a lock taken by another run since
 * it was looked at is never removed.
 */
export async function unlockCommand(id: string | undefined, opts: ServerOptions, out: Output): Promise<number> {
  const { client } = await connect(opts, out);
  const { holder, removed } = await unlock(client, id);
  if (holder === undefined) {
    out.stdout('The server is not locked: no apply holds it.\n');
    return EXIT.ok;
  }
  if (holder === 'foreign') throw new UserError(`organisation "${LOCK_ORG}" exists but is not forgeform's apply lock: forgeform leaves it alone`);
  if (removed) {
    out.stdout(`Removed the apply lock ${describeHolder(holder)}.\n`);
    return EXIT.ok;
  }
  if (id === undefined) {
    out.stdout(`The server is locked: ${describeHolder(holder)}.\nIf no apply is running, remove the lock with: forgeform unlock ${holder.id}\n`);
    return EXIT.error;
  }
  throw new UserError(`the lock's id is ${holder.id}, not ${id}: it is ${describeHolder(holder)}; nothing was removed`);
}
