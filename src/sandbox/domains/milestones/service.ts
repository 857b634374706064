/** Creating and finding milestones, for the routes, issues and the seed loader. */
import { nowIso, type RepoRecord, type SandboxState } from '../../core/state.js';
import { type MilestoneRecord, milestonesOfRepo } from './records.js';

/** A time as Gitea stores it (Unix seconds) and renders it: RFC 3339, seconds, UTC. */
export function unixSecondsIso(input: string | number): string {
  const ms = typeof input === 'number' ? input : Date.parse(input);
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface NewMilestone {
  title: string;
  description?: string;
  /** `closed` closes it; any other value (or none) leaves it open, as the handler does. */
  state?: string;
  /** RFC 3339; none = Gitea's 9999-12-31 placeholder, which reads back as `due_on: null`. */
  dueOn?: string | null;
}

/** `CreateMilestone` (shared with the seed loader). */
export function createMilestone(state: SandboxState, repo: RepoRecord, input: NewMilestone): MilestoneRecord {
  const now = nowIso();
  const closed = input.state === 'closed';
  const milestone: MilestoneRecord = {
    id: state.nextId('milestone'),
    repoId: repo.id,
    title: input.title,
    description: input.description ?? '',
    state: closed ? 'closed' : 'open',
    dueOn: input.dueOn ? unixSecondsIso(input.dueOn) : null,
    createdAt: now,
    updatedAt: now,
    closedAt: closed ? now : null,
  };
  state.data.milestones.push(milestone);
  return milestone;
}

/** Go's `strconv.ParseInt(s, 0, 64)`: base prefixes `0x`, `0o`, `0b`, a leading `0` for octal, `_` between digits. */
export function parseGoIntBase0(s: string): number | null {
  const m = /^([+-]?)(.*)$/.exec(s)!;
  const body = m[2]!;
  let digits: string;
  let base: number;
  if (/^0[xX](_?[0-9a-fA-F])+$/.test(body)) [digits, base] = [body.slice(2), 16];
  else if (/^0[bB](_?[01])+$/.test(body)) [digits, base] = [body.slice(2), 2];
  else if (/^0[oO](_?[0-7])+$/.test(body)) [digits, base] = [body.slice(2), 8];
  else if (/^0(_?[0-7])+$/.test(body)) [digits, base] = [body.slice(1), 8];
  else if (/^(0|[1-9](_?[0-9])*)$/.test(body)) [digits, base] = [body, 10];
  else return null;
  const value = [...digits.replace(/_/g, '')].reduce((acc, ch) => acc * BigInt(base) + BigInt(parseInt(ch, base)), 0n);
  const signed = m[1] === '-' ? -value : value;
  if (signed > 9223372036854775807n || signed < -9223372036854775808n) return null;
  const n = Number(signed);
  return Number.isSafeInteger(n) ? n : null;
}

/** `getMilestoneByIDOrName`: a non-zero id of this repository, else the exact title. */
export function findMilestone(state: SandboxState, repo: RepoRecord, raw: string): MilestoneRecord | undefined {
  const milestones = milestonesOfRepo(state, repo.id).sort((a, b) => a.id - b.id);
  const id = parseGoIntBase0(raw) ?? 0;
  if (id !== 0) {
    const byId = milestones.find((m) => m.id === id);
    if (byId) return byId;
  }
  return milestones.find((m) => m.title === raw);
}
