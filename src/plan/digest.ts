import { createHash } from 'node:crypto';
import type { CurrentObject, Kind } from '../model/index.js';

/** A stable digest of a value: keys sorted, so equal objects give equal digests. */
export function digestOf(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex').slice(0, 16);
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}

/**
 * The digest a change's precondition carries: the object's id (ops address it) and its fields, less
 * those the kind guards otherwise (an issue body is guarded by its content version), and the values
 * beside its fields that the kind names (an issue's label ids). Nothing else of its meta counts.
 */
export function objectDigest(o: CurrentObject, kind: Pick<Kind, 'guardedByServer' | 'inDigest'>): string {
  const unguarded = kind.guardedByServer ?? [];
  const fields = unguarded.length ? Object.fromEntries(Object.entries(o.fields).filter(([k]) => !unguarded.includes(k))) : o.fields;
  const beside = kind.inDigest?.(o);
  return digestOf({ id: o.id ?? null, fields, ...(beside ? { beside } : {}) });
}
