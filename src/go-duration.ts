/**
 * Go's `time.ParseDuration` and `Duration.String` (src/time/format.go), by which Gitea reads and answers
 * mirror intervals: "8h" is stored as 8 hours and answered as "8h0m0s"; "0" and "0s" are 0. Intervals
 * are compared as the server answers them (durationString). One copy for the kinds and the sandbox's
 * mirror routes (beside random.ts: neither side owns it). Nanoseconds as a bigint: an int64 does not
 * fit in a double.
 */
// A Map, not an object: a unit read from a config or a server answer ("1constructor") must not reach Object.prototype.
const UNITS: ReadonlyMap<string, bigint> = new Map([['ns', 1n], ['us', 1000n], ['µs', 1000n], ['μs', 1000n], ['ms', 1_000_000n], ['s', 1_000_000_000n], ['m', 60_000_000_000n], ['h', 3_600_000_000_000n]]);
const MAX = (1n << 63n) - 1n;

/** The duration in nanoseconds, or undefined where Go answers `time: invalid duration` (or `missing unit`). */
export function parseGoDuration(text: string): bigint | undefined {
  let s = text;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s.startsWith('-');
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  const part = /^(\d*)(?:\.(\d*))?([a-zµμ]+)/;
  while (s !== '') {
    const m = part.exec(s);
    if (!m || (m[1] === '' && (m[2] ?? '') === '')) return undefined;
    const unit = UNITS.get(m[3] ?? '');
    if (unit === undefined) return undefined;
    const frac = m[2] ?? '';
    total += BigInt(m[1] || '0') * unit + (frac ? (BigInt(frac) * unit) / 10n ** BigInt(frac.length) : 0n);
    if (total > MAX) return undefined;
    s = s.slice(m[0].length);
  }
  return neg ? -total : total;
}

/** `Duration.String`: "8h0m0s", "10m0s", "1m30s", "1.5s", "0s"; below a second in ms, µs or ns. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  const u = ns < 0n ? -ns : ns;
  const frac = (v: bigint, digits: number): string => {
    const d = 10n ** BigInt(digits);
    const f = (v % d).toString().padStart(digits, '0').replace(/0+$/, '');
    return `${v / d}${f ? `.${f}` : ''}`;
  };
  if (u < 1000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${frac(u, 3)}µs`;
  if (u < 1_000_000_000n) return `${sign}${frac(u, 6)}ms`;
  const h = u / 3_600_000_000_000n;
  const m = (u / 60_000_000_000n) % 60n;
  const secs = frac(u % 60_000_000_000n, 9);
  return `${sign}${h > 0n ? `${h}h` : ''}${h > 0n || m > 0n ? `${m}m` : ''}${secs}s`;
}

/** A declared or answered interval as the server answers it ("8h" → "8h0m0s"); what Go cannot parse, as written. */
export function durationString(value: unknown): string {
  if (value === null || value === undefined) return '';
  const ns = parseGoDuration(String(value));
  return ns === undefined ? String(value) : formatGoDuration(ns);
}
