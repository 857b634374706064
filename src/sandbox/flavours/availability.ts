/**
 * Which releases have something, as data: per fork, the releases from `since` to `until` (both
 * inclusive). A fork not named lacks it; no availability at all means every release has it.
 */
import { releaseNumber, type Flavour, type Release } from './flavour.js';

export interface Span {
  since?: Release;
  until?: Release;
}

/** The releases that have something, per fork; a fork not named has none. */
export interface Availability {
  gitea?: Span;
  forgejo?: Span;
}

export function available(flavour: Flavour, a: Availability | undefined): boolean {
  if (!a) return true;
  const span = a[flavour.fork];
  if (!span) return false;
  const since = span.since === undefined ? Number.NEGATIVE_INFINITY : releaseNumber(flavour.fork, span.since);
  const until = span.until === undefined ? Number.POSITIVE_INFINITY : releaseNumber(flavour.fork, span.until);
  return flavour.release >= since && flavour.release <= until;
}
