import type { Availability } from './server.js';
import type { ValueType } from '../gitea/answer.js';

/** How a field is compared: scalars by value, sets ignoring order and duplicates, text as multi-line. */
export type FieldType = 'scalar' | 'set' | 'text';

export interface FieldSpec {
  name: string;
  type: FieldType;
  /** Brings config and server values to one comparable shape (e.g. colours without '#'). */
  normalize?: (value: unknown) => unknown;
  /** Can be written but is never returned by the server: never compared. */
  writeOnly?: boolean;
  /** Never printed: rendered as (sensitive). */
  sensitive?: boolean;
  /** false: a write answer's value is not comparable with what was sent (e.g. labels in add mode). */
  readBack?: boolean;
  /** Write-only, and the server clears it on any edit that omits it: every edit of the object sends (and shows) it. */
  resendOnEdit?: boolean;
  /**
   * The releases of each fork that have the field (absent: every release of both). A server without
   * it would ignore it, so the value would never converge: the plan refuses a config that sets it
   * there (src/plan/availability.ts), and export leaves it out.
   */
  availability?: Availability;
  /** Why a release without it cannot have it, as the plan's hint says it (default: the server would ignore it). */
  unavailableHint?: string;
  /**
   * The type the server answers the field in, under its own name (absent or null allowed): a read
   * whose answer holds another type is refused, never coerced (src/gitea/answer.ts, shapeOfFields).
   */
  answer?: ValueType;
}
