// What a sandbox received, as tests assert it: "METHOD path" lines (without /api/v1/) and bodies.
import type { RequestLogEntry, Sandbox } from '../../src/sandbox/index.js';

/** The API requests the sandbox received (without the /api/v1 prefix), e.g. "GET repos/acme/widgets/labels". */
export function calls(sandbox: Sandbox): string[] {
  return sandbox.requests().map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, '')}`);
}

/** The requests that change something (anything but reads). */
export function writes(sandbox: Sandbox): string[] {
  return calls(sandbox).filter((c) => !c.startsWith('GET '));
}

/** The requests of one method to one API path (without /api/v1/). */
export function requestsTo(sandbox: Sandbox, method: string, path: string): RequestLogEntry[] {
  return sandbox.requests().filter((r) => r.method === method && r.path === `/api/v1/${path}`);
}

/** The body of the first such request. */
export function bodyOf<T = Record<string, unknown>>(sandbox: Sandbox, method: string, path: string): T | undefined {
  return requestsTo(sandbox, method, path)[0]?.body as T | undefined;
}
