import { describe, expect, it } from 'vitest';
import { opsInput } from '../support/ops-input.js';
import { dueDateToSend, serverDate, serverOffset, utcOffsetOf } from '../../src/kinds/issue/due-date.js';
import { issueKind } from '../../src/kinds/issue/index.js';
import type { GiteaClient } from '../../src/gitea/client.js';
import { makeScopeContext } from '../../src/plan/planner.js';
import { policyOf } from '../../src/plan/safety.js';

/** What Gitea stores for a sent due date (23:59:59 of that day, in the offset it was sent with), read back in `offset`. */
function storedAndReadBack(sent: string, offset: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T[\d:]+(Z|[+-]\d{2}:\d{2})$/.exec(sent)!;
  const sentMinutes = m[2] === 'Z' ? 0 : (m[2]!.startsWith('-') ? -1 : 1) * (Number(m[2]!.slice(1, 3)) * 60 + Number(m[2]!.slice(4)));
  const instant = Date.parse(`${m[1]}T23:59:59Z`) - sentMinutes * 60_000;
  const readMinutes = offset === 'Z' ? 0 : (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4)));
  return `${new Date(instant + readMinutes * 60_000).toISOString().slice(0, 19)}${offset}`;
}

describe('issue due dates in the server’s zone', () => {
  it('the day is the one the server writes, in its own zone', () => {
    expect(serverDate('2027-01-16T08:59:59+09:00')).toBe('2027-01-16');
    expect(serverDate('2027-01-15')).toBe('2027-01-15');
    expect(serverDate(null)).toBeNull();
    expect(utcOffsetOf('2027-01-15T23:59:59+09:00')).toBe('+09:00');
    expect(utcOffsetOf('2027-01-15T23:59:59.123-05:30')).toBe('-05:30');
    expect(utcOffsetOf('2027-01-15T23:59:59Z')).toBe('Z');
    expect(utcOffsetOf('2027-01-15')).toBeUndefined();
  });

  it('the offset comes from the due date, else the last update, else the creation; UTC when none', () => {
    expect(serverOffset({ due_date: '2026-07-01T23:59:59+02:00', updated_at: '2026-01-01T10:00:00+01:00' })).toBe('+02:00');
    expect(serverOffset({ due_date: null, updated_at: '2026-01-01T10:00:00+09:00', created_at: '2025-01-01T10:00:00Z' })).toBe('+09:00');
    expect(serverOffset({ due_date: null, created_at: '2025-01-01T10:00:00-05:00' })).toBe('-05:00');
    expect(serverOffset({})).toBe('Z');
  });

  it('east and west of UTC, what forgeform sends reads back as the same day (UTC midnight did not, east of UTC)', () => {
    for (const offset of ['+09:00', '+14:00', 'Z', '-05:00', '-11:00']) {
      expect(serverDate(storedAndReadBack(dueDateToSend('2027-01-15', offset), offset))).toBe('2027-01-15');
    }
    expect(serverDate(storedAndReadBack('2027-01-15T00:00:00Z', '+09:00'))).toBe('2027-01-16');
  });

  it('an issue answered in Tokyo time (no due date yet) gets its due date sent in Tokyo time, and compares as the day it shows', async () => {
    const answer = { number: 5, title: 'Five', body: '', state: 'open', ref: '', labels: [], milestone: null, assignees: null, due_date: null, created_at: '2026-03-01T10:00:00+09:00', updated_at: '2026-03-02T11:00:00+09:00' };
    const current = issueKind.fromServer(answer);
    const prepared = new Map([['#5', { problems: [], targets: [], currentNames: [] }]]);
    const scope = { type: 'repo' as const, name: 'acme/widgets' };
    const ops = issueKind.ops(opsInput(issueKind, { scope, action: 'update', desired: { key: '#5', fields: { due_date: '2027-01-15' }, path: [] }, current, changed: ['due_date'], ctx: makeScopeContext({} as GiteaClient, policyOf(undefined)), prepared, shown: {} }));
    expect(ops).toEqual([{ method: 'PATCH', path: 'repos/acme/widgets/issues/5', body: { due_date: '2027-01-15T00:00:00+09:00' } }]);
    const after = issueKind.fromServer({ ...answer, due_date: storedAndReadBack('2027-01-15T00:00:00+09:00', '+09:00') });
    expect(after.fields.due_date).toBe('2027-01-15');
  });
});
