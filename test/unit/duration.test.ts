// Mirror intervals as Go reads and writes them (time.ParseDuration, Duration.String): one module for the kinds and the sandbox.
import { describe, expect, it } from 'vitest';
import { durationString, formatGoDuration, parseGoDuration } from '../../src/go-duration.js';

// Values of Go's own tests (src/time/time_test.go parseDurationTests, durationTests).
const STRINGS: [string, string][] = [
  ['8h', '8h0m0s'],
  ['10m', '10m0s'],
  ['1h30m', '1h30m0s'],
  ['90m', '1h30m0s'],
  ['1.5h', '1h30m0s'],
  ['.5m', '30s'],
  ['0', '0s'],
  ['0s', '0s'],
  ['1m30s', '1m30s'],
  ['1.5s', '1.5s'],
  ['2200ms', '2.2s'],
  ['1100µs', '1.1ms'],
  ['2200ns', '2.2µs'],
  ['+5h', '5h0m0s'],
  ['-4m', '-4m0s'],
  ['24h0m0s', '24h0m0s'],
];

describe('Go durations', () => {
  it.each(STRINGS)('%s is answered as %s', (given, answered) => {
    expect(durationString(given)).toBe(answered);
    const ns = parseGoDuration(given);
    expect(ns === undefined ? undefined : formatGoDuration(ns)).toBe(answered);
  });

  it('refuses what Go refuses: "", a number without a unit (but 0), an unknown unit, a lone dot', () => {
    // Units named like Object.prototype's members are unknown units, not a crash.
    for (const bad of ['', '8', 'h', '1d', '.h', '1h 30m', '3000000h', '1constructor', '2tostring', '1__proto__']) {
      expect(parseGoDuration(bad), bad).toBeUndefined();
    }
    // What cannot be parsed is compared as written (the schema refuses it first).
    expect(durationString('1d')).toBe('1d');
    expect(durationString('1constructor')).toBe('1constructor');
  });

  it('keeps nanoseconds exact beyond a double', () => {
    expect(formatGoDuration(parseGoDuration('2562047h47m16.854775807s')!)).toBe('2562047h47m16.854775807s');
  });
});
