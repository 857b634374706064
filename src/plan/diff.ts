import { isDeepStrictEqual } from 'node:util';
import type { FieldSpec } from '../model/index.js';
import { isSecret, type Secret } from '../secret.js';
import type { FieldChange } from '../model/index.js';

/** The managed fields whose desired value differs from the current one. */
export function diffFields(
  specs: FieldSpec[],
  desired: Record<string, unknown>,
  current: Record<string, unknown> | undefined,
  comparer?: (field: string) => ((a: unknown, b: unknown) => boolean) | undefined,
): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const spec of specs) {
    // A write-only field is compared where the kind's read has it (a server that returns it after all).
    if (!(spec.name in desired) || (spec.writeOnly && !(current && spec.name in current))) continue;
    const after = desired[spec.name];
    const before = current?.[spec.name];
    const custom = comparer?.(spec.name);
    if (current && (custom ? custom(after, before) : equal(spec, before, after))) continue;
    changes.push({
      path: spec.name,
      ...(current ? { before: spec.sensitive ? null : before } : {}),
      after: spec.sensitive ? shownSecret(after) : after,
      ...(spec.sensitive ? { sensitive: true } : {}),
      ...(spec.abbreviated ? { abbreviated: true } : {}),
      ...(spec.perElement && spec.type === 'set' ? { elements: true } : {}),
    });
  }
  return changes;
}

/** A sensitive value is shown only as the Secret it is (printed "(sensitive)", saved as its ${NAME} template), else not at all. */
export function shownSecret(value: unknown): Secret | null {
  return isSecret(value) ? value : null;
}

export function equal(spec: FieldSpec, a: unknown, b: unknown): boolean {
  const na = spec.normalize ? spec.normalize(a) : a;
  const nb = spec.normalize ? spec.normalize(b) : b;
  if (spec.type === 'set' && Array.isArray(na) && Array.isArray(nb)) {
    return isDeepStrictEqual([...na].map(String).sort(), [...nb].map(String).sort());
  }
  return isDeepStrictEqual(na, nb);
}
