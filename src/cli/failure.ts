import { ConfigError } from '../config/errors.js';
import { ApiError } from '../gitea/errors.js';
import { PreflightError } from '../gitea/preflight.js';
import { fileReason } from './files.js';
import { EXIT, UserError } from './output.js';

/** Errors whose message is already written for the user: printed as they are. */
const WORDED = [ConfigError, ApiError, PreflightError];

/** A stack trace is for whoever debugs forgeform, and only on request. */
export function debugWanted(argv: string[] = process.argv, env: NodeJS.ProcessEnv = process.env): boolean {
  return argv.includes('--debug') || (env.FORGEFORM_DEBUG !== undefined && env.FORGEFORM_DEBUG !== '' && env.FORGEFORM_DEBUG !== '0');
}

/**
 * Any failure as one message and an exit code: what failed, where, and what to do. An error nobody
 * worded (a bug) still gets one line, pointing at --debug for the stack trace.
 */
export function describeFailure(e: unknown): { message: string; exitCode: number } {
  if (e instanceof UserError) return { message: e.message, exitCode: e.exitCode };
  if (WORDED.some((k) => e instanceof k)) return { message: (e as Error).message, exitCode: EXIT.error };
  const errno = e as NodeJS.ErrnoException | undefined;
  // A file operation nobody wrapped: the file and the reason still say enough to act on.
  if (errno && typeof errno.code === 'string' && typeof errno.path === 'string')
    return { message: `forgeform: cannot ${errno.syscall ?? 'use'} ${errno.path}: ${fileReason(e)}`, exitCode: EXIT.error };
  const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return {
    message: `forgeform: internal error: ${text.split('\n')[0]}. This is a bug in forgeform: please report it with the output of the same command run with --debug.`,
    exitCode: EXIT.error,
  };
}

/** The stack of an error and of its causes, for --debug. */
export function stackOf(e: unknown): string {
  const parts: string[] = [];
  for (let cur = e, depth = 0; cur !== undefined && cur !== null && depth < 5; cur = (cur as { cause?: unknown }).cause, depth++)
    parts.push(`${depth ? 'caused by: ' : ''}${cur instanceof Error ? (cur.stack ?? cur.message) : String(cur)}`);
  return parts.join('\n');
}
