/**
 * Whether a flavour has something its tables say only some releases have (the Availability of
 * src/releases/availability.ts, the type the kinds' availability data use too).
 */
import type { Availability } from '../../releases/availability.js';
import { releaseNumber, type Flavour } from './flavour.js';

export type { Availability, Span } from '../../releases/availability.js';

export function available(flavour: Flavour, a: Availability | undefined): boolean {
  if (!a) return true;
  const span = a[flavour.fork];
  if (!span) return false;
  const since = span.since === undefined ? Number.NEGATIVE_INFINITY : releaseNumber(flavour.fork, span.since);
  const until = span.until === undefined ? Number.POSITIVE_INFINITY : releaseNumber(flavour.fork, span.until);
  return flavour.release >= since && flavour.release <= until;
}
