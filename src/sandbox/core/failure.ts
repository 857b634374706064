/** Helpers shared by the route modules and the seed loader. */
import type { ApiContext } from '../http/context.js';
import { apiError } from '../http/respond.js';

/** A refusal: the status and `message` the API answers. */
export interface Failure {
  status: number;
  message: string;
  /** Marks the object as a refusal (records never have it). */
  failure: true;
}

export function failure(status: number, message: string): Failure {
  return { status, message, failure: true };
}

export function isFailure(v: unknown): v is Failure {
  return typeof v === 'object' && v !== null && (v as { failure?: unknown }).failure === true;
}

export function fail(ctx: ApiContext, f: Failure): Response {
  return apiError(ctx.root, f.status, f.message);
}

/** `db.IsUsableName`: reserved names (compared lower-cased) and `*.x` / `x*` patterns. */
export function checkUsableName(name: string, reserved: Set<string>, patterns: string[]): Failure | undefined {
  const n = name.trim().toLowerCase();
  if (n === '') return failure(422, 'name is empty');
  if (reserved.has(n)) return failure(422, `name is reserved [name: ${n}]`);
  for (const pat of patterns) {
    if ((pat.startsWith('*') && n.endsWith(pat.slice(1))) || (pat.endsWith('*') && n.startsWith(pat.slice(0, -1)))) {
      return failure(422, `name pattern is not allowed [pattern: ${pat}]`);
    }
  }
  return undefined;
}
