/** Creating labels (`CreateLabel` with its colour normalisation), for the routes and the seed loader. */
import { nowIso, type SandboxState } from '../../core/state.js';
import type { LabelRecord } from './records.js';
import { failure, isFailure, type Failure } from '../../core/failure.js';

/** `label.NormalizeColor`: lower-case, trim, `#` added to 3 or 6 digits, 3 digits expanded. */
export function normalizeColor(input: string): string | Failure {
  let color = input.toLowerCase().trim();
  const len = Buffer.byteLength(color);
  if (len === 6 || len === 3) color = `#${color}`;
  if (!/^#?(?:[0-9a-f]{6}|[0-9a-f]{3})$/.test(color)) return failure(422, `bad color code: ${color}`);
  if (color.length === 4) color = `#${color[1]}${color[1]}${color[2]}${color[2]}${color[3]}${color[3]}`;
  return color;
}

/** Go's `strconv.ParseInt(s, 10, 64)`: null when `s` is not a decimal int64. */
export function parseGoInt(s: string): number | null {
  if (!/^[+-]?\d+$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

export interface NewLabel {
  name: string;
  color: string;
  description?: string;
  exclusive?: boolean;
  isArchived?: boolean;
}

/** Creates a repository label (`repoId`) or an organisation label (`orgId`). */
export function createLabel(state: SandboxState, owner: { repoId: number } | { orgId: number }, input: NewLabel): LabelRecord | Failure {
  const color = normalizeColor(input.color);
  if (isFailure(color)) return color;
  const now = nowIso();
  const label: LabelRecord = {
    id: state.nextId('label'),
    repoId: 'repoId' in owner ? owner.repoId : 0,
    orgId: 'orgId' in owner ? owner.orgId : 0,
    name: input.name,
    color,
    description: input.description ?? '',
    exclusive: input.exclusive ?? false,
    archivedAt: input.isArchived ? now : null,
    createdAt: now,
    updatedAt: now,
  };
  state.data.labels.push(label);
  return label;
}
