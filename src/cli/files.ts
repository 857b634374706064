import { accessSync, constants, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from './output.js';

/** What a failed file operation means for the user, by system error code. */
const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory: give a file name',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exceeded',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many open files',
};

/** "permission denied" for an errno error, else its message. */
export function fileReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return (code && REASONS[code]) ?? (e instanceof Error ? e.message : String(e));
}

/**
 * Fails now, before the server is read, when `path` cannot be written: a long plan or export should
 * not end with "cannot write". `option` names where the path came from (--out, -o).
 */
export function checkWritable(path: string, option: string): void {
  const fail = (reason: string) => {
    throw new UserError(`cannot write ${option} ${path}: ${reason}`);
  };
  let stat;
  try {
    stat = statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') fail(fileReason(e));
  }
  if (stat?.isDirectory()) fail(REASONS.EISDIR!);
  const target = stat ? path : dirname(resolve(path));
  try {
    if (!stat && !statSync(target).isDirectory()) fail(REASONS.ENOTDIR!);
  } catch (e) {
    if (e instanceof UserError) throw e;
    fail((e as NodeJS.ErrnoException).code === 'ENOENT' ? `its directory ${target} does not exist` : fileReason(e));
  }
  try {
    accessSync(target, constants.W_OK);
  } catch (e) {
    if (e instanceof UserError) throw e;
    fail(fileReason(e));
  }
}

/** Writes an output file; any failure is one line naming the file and the reason. */
export function writeOutputFile(path: string, content: string, option: string, mode?: number): void {
  try {
    writeFileSync(path, content, mode === undefined ? undefined : { mode });
  } catch (e) {
    throw new UserError(`cannot write ${option} ${path}: ${fileReason(e)}`);
  }
}
