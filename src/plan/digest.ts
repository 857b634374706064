import { createHash } from 'node:crypto';

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
 * The digest a change's precondition carries: the object's id (ops address it) and its fields,
 * less those the kind guards otherwise (an issue body is guarded by its content version).
 */
export function objectDigest(o: { id?: number | string; fields: Record<string, unknown> }, unguarded: string[] = []): string {
  const fields = Object.fromEntries(Object.entries(o.fields).filter(([k]) => !unguarded.includes(k)));
  return digestOf({ id: o.id ?? null, fields });
}
