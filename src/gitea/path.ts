/** Joins path segments, percent-encoding each one, so `release/*` and `help wanted` stay one segment. */
export function apiPath(...segments: (string | number)[]): string {
  return segments.map((s) => encodeURIComponent(String(s))).join('/');
}

/**
 * Why a request path could leave the API base, or undefined when it cannot. Every path the client
 * sends must look as apiPath builds it: relative, non-empty segments, each percent-encoded exactly
 * as encodeURIComponent would, none of them (even decoded, as a proxy may decode it) `.` or `..`.
 * A plan file is input from outside, and a name on the server is too: neither may steer a request
 * (with the token) to another path or host.
 */
export function unsafePathReason(path: string): string | undefined {
  if (path === '') return 'the path is empty';
  if (/^[a-z][a-z0-9+.-]*:/i.test(path) || path.startsWith('//')) return 'an absolute URL is not an API path';
  if (path.startsWith('/')) return 'the path must be relative to /api/v1';
  for (const segment of path.split('/')) {
    if (segment === '') return 'the path has an empty segment';
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return `segment "${segment}" is not valid percent-encoding`;
    }
    if (encodeURIComponent(decoded) !== segment) return `segment "${segment}" was not encoded as apiPath encodes it`;
    if (decoded.split('/').some((part) => part === '.' || part === '..')) return `segment "${segment}" would climb out of the API path`;
  }
  return undefined;
}
