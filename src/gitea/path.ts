/** Joins path segments, percent-encoding each one, so `release/*` and `help wanted` stay one segment. */
export function apiPath(...segments: (string | number)[]): string {
  return segments.map((s) => encodeURIComponent(String(s))).join('/');
}
