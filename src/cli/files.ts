import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, lstatSync, openSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
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
 * not end with "cannot write". `option` names where the path came from (--out, -o). The file is
 * written as a new file in its directory and renamed into place (see writeOutputFile), so what counts
 * is that directory; an existing file is replaced only when `overwrite` allows it.
 */
export function checkWritable(path: string, option: string, { overwrite = true, force = '--force' }: { overwrite?: boolean; force?: string } = {}): void {
  const fail = (reason: string) => {
    throw new UserError(`cannot write ${option} ${path}: ${reason}`);
  };
  let stat;
  try {
    stat = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') fail(fileReason(e));
  }
  if (stat?.isDirectory()) fail(REASONS.EISDIR!);
  if (stat && !overwrite) fail(`it exists (it may be a config you wrote): give ${force} to replace it, or another file name`);
  const target = dirname(resolve(path));
  try {
    if (!statSync(target).isDirectory()) fail(REASONS.ENOTDIR!);
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

/**
 * Writes an output file as a new file, then renames it over `path` (issue 17): a reader never sees half
 * a file, the mode is the one asked for (0600 for a plan) and not an existing file's, and a symbolic
 * link at `path` is replaced by the file instead of being written through to wherever it points. Any
 * failure is one line naming the file and the reason; the temporary file does not stay behind.
 */
export function writeOutputFile(path: string, content: string | Iterable<string>, option: string, mode = 0o644): void {
  const temp = join(dirname(resolve(path)), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    if (typeof content === 'string') writeFileSync(temp, content, { mode, flag: 'wx' });
    else writePieces(temp, content, mode);
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    // Content that refused to be made (a plan piece that would hold a secret) is no file system failure.
    if (e instanceof PieceError) throw new UserError(`${option} ${path}: ${e.message}`);
    throw new UserError(`cannot write ${option} ${path}: ${fileReason(e)}`);
  }
}

class PieceError extends Error {}

/** Writes pieces as they come, about a megabyte at a time: a large plan file is never one string in memory. */
function writePieces(path: string, pieces: Iterable<string>, mode: number): void {
  const fd = openSync(path, 'wx', mode);
  try {
    let batch: string[] = [];
    let size = 0;
    const it = pieces[Symbol.iterator]();
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = it.next();
      } catch (e) {
        throw new PieceError((e as Error).message);
      }
      if (next.done) break;
      const piece = next.value;
      batch.push(piece);
      size += piece.length;
      if (size < 1 << 20) continue;
      writeAll(fd, batch.join(''));
      batch = [];
      size = 0;
    }
    if (batch.length) writeAll(fd, batch.join(''));
  } finally {
    closeSync(fd);
  }
}

function writeAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
}
