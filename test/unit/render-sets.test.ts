import { describe, expect, it } from 'vitest';
import type { Change, Plan } from '../../src/model/index.js';
import { colors } from '../../src/render/color.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText } from '../../src/render/text.js';

// Issue 21: a set whose elements are written one request each (a team's members) shows each element added or removed.
function planOf(changes: Change[]): Plan {
  return {
    format_version: 1,
    forgeform_version: '0.1.0',
    created_at: '2026-01-01T00:00:00Z',
    server: { url: 'https://git.example.com', flavour: 'gitea', version: '1.25.4' },
    config_digest: 'x',
    summary: { create: 1, update: 1, delete: 0, rename: 0, replace: 0 },
    policy: { prune: [], max_deletes: 10, max_delete_fraction: 0.3, protected_users: [], purge_users: false },
    unsafe: [],
    warnings: [],
    changes,
  };
}

const base = { kind: 'team', scope: 'org:acme', precondition: { digest: null }, depends_on: [], ops: [] };

describe('set changes in the plan', () => {
  it('list each element added (+) and removed (-) under the field, additions first; a create lists the whole set', () => {
    const text = renderPlanText(
      planOf([
        { ...base, id: 'u', key: 'devs', action: 'update', fields: [{ path: 'members', before: ['alice', 'carol', 'dave'], after: ['alice', 'bob', 'dave'], elements: true }, { path: 'description', before: 'a', after: 'b' }] },
        { ...base, id: 'c', key: 'ops', action: 'create', fields: [{ path: 'members', after: ['eve', 'frank'], elements: true }] },
      ]),
      colors(false),
    );
    expect(text).toContain('  ~ team "devs"\n      ~ members:\n          + "bob"\n          - "carol"\n      ~ description: "a" → "b"\n');
    expect(text).not.toMatch(/"alice"|"dave"/);
    expect(text).toContain('  + team "ops"\n      + members = ["eve", "frank"]\n');
  });

  it('show a set not written element by element (a whole-list write) as before → after', () => {
    const text = renderPlanText(planOf([{ ...base, id: 'u', key: 'devs', action: 'update', fields: [{ path: 'labels', before: ['a'], after: ['a', 'b'] }] }]), colors(false));
    expect(text).toContain('~ labels: ["a"] → ["a", "b"]');
  });

  it('show a sensitive list as before, never element by element', () => {
    const text = renderPlanText(planOf([{ ...base, id: 'u', key: 'devs', action: 'update', fields: [{ path: 'tokens', before: ['a'], after: ['b'], sensitive: true, elements: true }] }]), colors(false));
    expect(text).toContain('~ tokens: (sensitive) → (sensitive)');
    expect(text).not.toContain('"b"');
  });

  it('keep the elements in the markdown comment', () => {
    const md = renderPlanMarkdown(planOf([{ ...base, id: 'u', key: 'devs', action: 'update', fields: [{ path: 'members', before: ['carol'], after: ['bob'], elements: true }] }]));
    expect(md).toMatch(/~\s+members:\n\s+\+ "bob"\n\s+- "carol"\n```/);
  });
});
