/**
 * Lists that a release does not page (issue 19): `GET /admin/hooks` before Gitea 1.26 and Forgejo 15
 * answers every hook, with no X-Total-Count and no Link; Forgejo 15 pages with X-Total-Count only.
 * The sandbox plays each release so (src/sandbox/NOTES.md), and the client reads such a list in one
 * request, never looping to its page cap.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { ADMIN_TOKEN, calls, world, type World } from './helpers.js';

const users: SeedFile['users'] = [{ username: 'root', admin: true, email: 'root@example.com' }];
const hookUrl = (i: number) => `https://ci.example.com/hook/${String(i).padStart(2, '0')}`;
const seedHooks = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: 'gitea', config: { url: hookUrl(i), content_type: 'json', is_system_webhook: true }, events: ['push'], active: true }));
const config = (n: number) => `version: 1\nhooks:\n${Array.from({ length: n }, (_, i) => `  - { url: "${hookUrl(i)}", events: [push] }\n`).join('')}`;

let w: World;
afterEach(async () => w?.sandbox.close());

const hookListCalls = () => calls(w.sandbox).filter((c) => c === 'GET admin/hooks');

describe('GET /admin/hooks as each release serves it', () => {
  it.each(['gitea@1.21', 'gitea@1.25', 'forgejo@7', 'forgejo@11'])('%s: every hook at once, whatever page and limit say, and no paging header', async (flavour) => {
    w = await world({ users, hooks: seedHooks(60) }, { flavour });
    const res = await fetch(`${w.sandbox.url}/api/v1/admin/hooks?page=2&limit=10`, { headers: { authorization: `token ${ADMIN_TOKEN}` } });
    expect(((await res.json()) as unknown[]).length).toBe(60);
    expect(res.headers.has('x-total-count')).toBe(false);
    expect(res.headers.has('link')).toBe(false);
  });

  it('forgejo@15 pages, with X-Total-Count and no Link; gitea@main pages with both', async () => {
    for (const [flavour, link] of [['forgejo@15', false], ['gitea@main', true]] as const) {
      w = await world({ users, hooks: seedHooks(60) }, { flavour });
      const res = await fetch(`${w.sandbox.url}/api/v1/admin/hooks?page=2&limit=50`, { headers: { authorization: `token ${ADMIN_TOKEN}` } });
      expect(((await res.json()) as unknown[]).length).toBe(10);
      expect(res.headers.get('x-total-count')).toBe('60');
      expect(res.headers.has('link')).toBe(link);
      await w.sandbox.close();
    }
  });
});

describe('forgeform plan against an unpaged list', () => {
  it.each(['gitea@1.21', 'forgejo@11'])('%s, 60 admin hooks: the plan finishes, with ONE request for the list', async (flavour) => {
    w = await world({ users, hooks: seedHooks(60) }, { flavour });
    const plan = await w.cli(['plan', '--detailed-exitcode', '-c', w.config(config(60))]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(hookListCalls()).toHaveLength(1);
  });

  it('gitea@1.25 with exactly 50 hooks (a full first page, no header): page 2 repeats it, and one narrower request (limit 49, still 50 answered) proves the list whole', async () => {
    w = await world({ users, hooks: seedHooks(50) }, { flavour: 'gitea@1.25' });
    const plan = await w.cli(['plan', '--detailed-exitcode', '-c', w.config(config(50))]);
    expect(plan.code, plan.stderr).toBe(0);
    // The system hooks' list (1.25 also lists the default ones, on their own: none here, one request).
    const asked = w.sandbox.requests().filter((r) => r.method === 'GET' && r.path === '/api/v1/admin/hooks' && r.query.type === 'system').map((r) => `${r.query.page}/${r.query.limit}`);
    expect(asked).toEqual(['1/50', '2/50', '1/49']);
  });

  it('forgejo@15, 60 admin hooks: paged as announced, two requests', async () => {
    w = await world({ users, hooks: seedHooks(60) }, { flavour: 'forgejo@15' });
    const plan = await w.cli(['plan', '--detailed-exitcode', '-c', w.config(config(60))]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(hookListCalls()).toHaveLength(2);
  });
});
