// What a sandbox received, as tests assert it: "METHOD path" lines (without /api/v1/) and bodies.
import type { RequestLogEntry, Sandbox } from '../../src/sandbox/index.js';

/** The lock's default name (src/model/server.ts LOCK_ORG); a test whose config sets `policy.apply_lock` passes its name. */
export const DEFAULT_LOCK = 'forgeform-lock';

/** The API requests the sandbox received (without the /api/v1 prefix), e.g. "GET repos/acme/widgets/labels"; apply's lock requests left out (see lockCalls). */
export function calls(sandbox: Sandbox, lock = DEFAULT_LOCK): string[] {
  return sandbox.requests().filter((r) => !isLockRequest(r, lock)).map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, '')}`);
}

/**
 * Whether a request is one of apply's lock (src/lock/lock.ts): its create (POST /orgs of the lock's
 * name), reads, renewals and removal. Every apply makes them; tests of what apply writes for a
 * configuration leave them out, tests of the lock look at them (lockCalls). `lock`: the name the
 * config's `policy.apply_lock` gives it (or `--lock-name`), default `forgeform-lock`.
 */
export function isLockRequest(r: RequestLogEntry, lock = DEFAULT_LOCK): boolean {
  if (r.path === `/api/v1/orgs/${encodeURIComponent(lock)}`) return true;
  return r.method === 'POST' && r.path === '/api/v1/orgs' && (r.body as { username?: unknown } | undefined)?.username === lock;
}

/** Apply's lock requests, as calls() writes them. */
export function lockCalls(sandbox: Sandbox, lock = DEFAULT_LOCK): string[] {
  return sandbox.requests().filter((r) => isLockRequest(r, lock)).map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, '')}`);
}

/** The requests that change something (anything but reads). */
export function writes(sandbox: Sandbox, lock = DEFAULT_LOCK): string[] {
  return calls(sandbox, lock).filter((c) => !c.startsWith('GET '));
}

/** The requests of one method to one API path (without /api/v1/). */
export function requestsTo(sandbox: Sandbox, method: string, path: string): RequestLogEntry[] {
  return sandbox.requests().filter((r) => r.method === method && r.path === `/api/v1/${path}`);
}

/** The body of the first such request. */
export function bodyOf<T = Record<string, unknown>>(sandbox: Sandbox, method: string, path: string): T | undefined {
  return requestsTo(sandbox, method, path)[0]?.body as T | undefined;
}

/** Where the first request of this method to a path the pattern matches stands among all the sandbox received (-1: none), to check the order of two. */
export function positionOf(sandbox: Sandbox, method: string, path: RegExp): number {
  return sandbox.requests().findIndex((r) => r.method === method && path.test(r.path));
}
