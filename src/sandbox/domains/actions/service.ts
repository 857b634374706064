/** Runner registration tokens and runners, for the routes and the seed loader. */
import { randomInt, randomUUID } from 'node:crypto';
import { nowIso, type SandboxState } from '../../core/state.js';
import type { RunnerRecord, RunnerTokenRecord } from './records.js';

const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** `util.CryptoRandomString(40)`. */
function cryptoRandomString(n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return s;
}

/** `actions_model.NewRunnerToken`: a new active token; the scope's older tokens are deactivated. */
export function newRunnerToken(state: SandboxState, ownerId: number, repoId: number, token = cryptoRandomString(40)): RunnerTokenRecord {
  for (const t of state.data.runnerTokens) if (t.ownerId === ownerId && t.repoId === repoId) t.isActive = false;
  const rec: RunnerTokenRecord = { id: state.nextId('runnerToken'), token, ownerId, repoId, isActive: true, createdAt: nowIso() };
  state.data.runnerTokens.push(rec);
  return rec;
}

/** `shared.GetRegistrationToken`: the latest token of the scope, or a new one when there is none or it is inactive. */
export function registrationToken(state: SandboxState, ownerId: number, repoId: number): RunnerTokenRecord {
  const latest = state.data.runnerTokens.filter((t) => t.ownerId === ownerId && t.repoId === repoId).sort((a, b) => b.id - a.id)[0];
  return latest && latest.isActive ? latest : newRunnerToken(state, ownerId, repoId);
}

export interface CreateRunnerInput {
  name: string;
  uuid?: string;
  version?: string;
  ownerId?: number;
  repoId?: number;
  description?: string;
  labels?: string[];
  disabled?: boolean;
  ephemeral?: boolean;
  heartbeat?: 'active' | 'idle' | null;
  lastOnline?: string | null;
  lastActive?: string | null;
}

/** A registered runner (what `act_runner register` leaves in the database). */
export function createRunner(state: SandboxState, input: CreateRunnerInput): RunnerRecord {
  const rec: RunnerRecord = {
    id: state.nextId('runner'),
    uuid: input.uuid ?? randomUUID(),
    name: input.name,
    version: input.version ?? '',
    ownerId: input.ownerId ?? 0,
    repoId: input.repoId ?? 0,
    description: input.description ?? '',
    labels: input.labels ?? [],
    disabled: input.disabled ?? false,
    ephemeral: input.ephemeral ?? false,
    lastOnline: input.lastOnline ?? null,
    lastActive: input.lastActive ?? null,
    heartbeat: input.heartbeat ?? null,
    createdAt: nowIso(),
  };
  state.data.runners.push(rec);
  return rec;
}
