/** Seed key `hooks`: `POST /admin/hooks` bodies, validated and stored as that create does (README.md). */
import { CreateHookOption } from './options.js';
import { bindBody } from '../../http/binding.js';
import { createAdminHook, createWebhook, type CreateHookForm } from './service.js';
import type { NestedSeed, SeedContext } from '../../core/domain.js';
import { isFailure } from '../../core/failure.js';
import { list as items, obj as record, SeedError, type Obj } from '../../core/seed-shape.js';
import type { OrgRecord, RepoRecord, SandboxState } from '../../core/state.js';

/** A repository's or an organisation's seeded hook: a `POST …/hooks` body. */
export type SeedWebhook = Record<string, unknown>;

export interface SeedHooks {
  /** `POST /admin/hooks` bodies (config values may be YAML booleans or numbers). */
  hooks?: Record<string, unknown>[];
}

/** Each seeded hook as a bound `POST …/hooks` body (config values may be YAML booleans or numbers), with its place. */
function boundHooks(raw: unknown, path: string): { form: CreateHookForm; p: string }[] {
  return items(raw, path).map((h, i) => {
    const p = `${path}[${i}]`;
    const o = record(h, p, ['type', 'config', 'events', 'branch_filter', 'authorization_header', 'active', 'name']);
    const body: Obj = { ...o };
    if (o.config && typeof o.config === 'object' && !Array.isArray(o.config)) {
      body.config = Object.fromEntries(Object.entries(o.config as Obj).map(([k, v]) => [k, typeof v === 'boolean' || typeof v === 'number' ? String(v) : v]));
    }
    const bound = bindBody(CreateHookOption, { method: 'POST', contentType: 'application/json', rawBody: JSON.stringify(body), query: new URLSearchParams() });
    if (bound.error) throw new SeedError(`${p}: ${bound.error}`);
    return { form: bound.form, p };
  });
}

function seedHooks(state: SandboxState, raw: unknown): void {
  for (const { form, p } of boundHooks(raw, 'hooks')) {
    const res = createAdminHook(state, form);
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
  }
}

function seedWebhooks(state: SandboxState, place: { repoId: number } | { ownerId: number }, raw: unknown, path: string): void {
  for (const { form, p } of boundHooks(raw, path)) {
    const res = createWebhook(state, place, form);
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
  }
}

/** Seed keys `orgs[].hooks` and `repos[].hooks`: `POST /orgs/{org}/hooks` and `POST /repos/{owner}/{repo}/hooks` bodies. */
export const orgHooksSeed: NestedSeed<OrgRecord> = {
  keys: ['hooks'],
  load: (cx, org, o, p) => seedWebhooks(cx.state, { ownerId: org.id }, o.hooks, `${p}.hooks`),
};

export const repoHooksSeed: NestedSeed<RepoRecord> = {
  keys: ['hooks'],
  load: (cx, repo, o, p) => seedWebhooks(cx.state, { repoId: repo.id }, o.hooks, `${p}.hooks`),
};

export function loadHooksSeed(cx: SeedContext): void {
  seedHooks(cx.state, cx.top.hooks);
}
