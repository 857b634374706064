/**
 * Which releases have something, as data: per fork, the releases from `since` to `until` (both
 * inclusive). A fork not named lacks it; no availability at all means every release has it.
 */
import { releaseNumber, type Flavor, type Release } from './flavor.js';

export interface Span {
  since?: Release;
  until?: Release;
}

/** The releases that have something, per fork; a fork not named has none. */
export interface Availability {
  gitea?: Span;
  forgejo?: Span;
}

export function available(flavor: Flavor, a: Availability | undefined): boolean {
  if (!a) return true;
  const span = a[flavor.fork];
  if (!span) return false;
  const since = span.since === undefined ? Number.NEGATIVE_INFINITY : releaseNumber(flavor.fork, span.since);
  const until = span.until === undefined ? Number.POSITIVE_INFINITY : releaseNumber(flavor.fork, span.until);
  return flavor.release >= since && flavor.release <= until;
}
