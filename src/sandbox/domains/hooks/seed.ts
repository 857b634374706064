/** Seed key `hooks`: `POST /admin/hooks` bodies, validated and stored as that create does (README.md). */
import { CreateHookOption } from './options.js';
import { bindBody } from '../../http/binding.js';
import { createAdminHook } from './service.js';
import type { SeedContext } from '../../core/domain.js';
import { isFailure } from '../../core/failure.js';
import { list as items, obj as record, SeedError, type Obj } from '../../core/seed-shape.js';
import type { SandboxState } from '../../core/state.js';

export interface SeedHooks {
  /** `POST /admin/hooks` bodies (config values may be YAML booleans or numbers). */
  hooks?: Record<string, unknown>[];
}

function seedHooks(state: SandboxState, raw: unknown): void {
  items(raw, 'hooks').forEach((h, i) => {
    const p = `hooks[${i}]`;
    const o = record(h, p, ['type', 'config', 'events', 'branch_filter', 'authorization_header', 'active', 'name']);
    const body: Obj = { ...o };
    if (o.config && typeof o.config === 'object' && !Array.isArray(o.config)) {
      body.config = Object.fromEntries(Object.entries(o.config as Obj).map(([k, v]) => [k, typeof v === 'boolean' || typeof v === 'number' ? String(v) : v]));
    }
    const bound = bindBody(CreateHookOption, { method: 'POST', contentType: 'application/json', rawBody: JSON.stringify(body), query: new URLSearchParams() });
    if (bound.error) throw new SeedError(`${p}: ${bound.error}`);
    const res = createAdminHook(state, bound.form);
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
  });
}

export function loadHooksSeed(cx: SeedContext): void {
  seedHooks(cx.state, cx.top.hooks);
}
