import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { stickyBody, upsertStickyComment } from '../../src/action/comment.js';
import { Forge } from '../../src/action/forge.js';
import { BODY_LIMIT, cutMarkdown, foldIfLong } from '../../src/action/markdown.js';

const longPlan = (lines: number) =>
  ['### forgeform plan', '', '**Plan: many to create.**', '', '<details open><summary>Changes</summary>', '', '```diff', ...Array.from({ length: lines }, (_, i) => `+ label "l${i}"`), '```', '', '</details>', ''].join('\n');

describe('long plans in comments and issues', () => {
  it('cuts at a line, closes the fence and the details, and says how much was cut and where the rest is', () => {
    const md = longPlan(10_000);
    const cut = cutMarkdown(md, BODY_LIMIT - 100, 'The full plan is in the step summary.');
    expect(cut.length).toBeLessThanOrEqual(BODY_LIMIT - 100);
    expect((cut.match(/^```/gm) ?? []).length % 2).toBe(0);
    expect((cut.match(/<details/g) ?? []).length).toBe((cut.match(/<\/details>/g) ?? []).length);
    const m = /The plan was cut here:\*\* ([\d,]+) more characters \((\d+) lines\)/.exec(cut);
    expect(m).not.toBeNull();
    const keptLines = cut.split('\n').filter((l) => l.startsWith('+ label')).length;
    expect(Number(m![2])).toBeGreaterThan(10_000 - keptLines - 1);
    expect(cut).toContain('The full plan is in the step summary.');
  });

  it('leaves a plan that fits alone, and folds long plans closed', () => {
    const md = longPlan(5);
    expect(cutMarkdown(md, BODY_LIMIT, 'x')).toBe(md);
    expect(foldIfLong(md)).toContain('<details open>');
    expect(foldIfLong(longPlan(100))).not.toContain('<details open>');
  });
});

describe('finding the sticky comment among many', () => {
  let sandbox: Sandbox | undefined;
  let server: Server | undefined;
  afterEach(async () => {
    await sandbox?.close();
    await new Promise((r) => (server ? server.close(r) : r(undefined)));
    sandbox = undefined;
    server = undefined;
  });

  it('on Gitea, whose comment list ignores paging, reads the list once and edits the marked comment', async () => {
    sandbox = await startSandbox({ port: 0, token: 'adm-token', seed: { users: [{ username: 'root', admin: true }], repos: [{ name: 'root/cfg', issues: [{ title: 'PR' }] }] } });
    const forge = new Forge(`${sandbox.url}/api/v1`, 'adm-token', 'root', 'cfg');
    for (let i = 0; i < 60; i++) await forge.createComment(1, i === 55 ? '<!-- mark -->\nold plan' : `chat ${i}`);
    sandbox.clearRequests();
    const res = await upsertStickyComment(forge, 1, 'mark', ['root'], stickyBody('mark', [], 'new plan'));
    expect(res.created).toBe(false);
    const reqs = sandbox.requests().map((r) => `${r.method} ${r.path}`);
    expect(reqs.filter((r) => r.startsWith('GET'))).toHaveLength(1);
    expect(reqs.filter((r) => r.startsWith('PATCH'))).toHaveLength(1);
    const all = await forge.listComments(1);
    expect(all).toHaveLength(60);
    expect(all.filter((c) => c.body.includes('new plan'))).toHaveLength(1);
  });

  it('on GitHub, follows the Link header through the pages', async () => {
    const comments = Array.from({ length: 120 }, (_, i) => ({ id: i + 1, body: i === 110 || i === 20 ? '<!-- mark -->\nold' : `chat ${i}`, user: { login: i === 20 ? 'mallory' : 'github-actions[bot]' } }));
    const seen: string[] = [];
    server = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      seen.push(`${req.method} ${url.pathname}${url.search}`);
      if (req.method === 'PATCH') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 111, body: 'new' }));
        return;
      }
      const page = Number(url.searchParams.get('page') ?? 1);
      const per = Number(url.searchParams.get('per_page') ?? 30);
      const items = comments.slice((page - 1) * per, page * per);
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (page * per < comments.length) headers.link = `<http://x/next?page=${page + 1}>; rel="next"`;
      res.writeHead(200, headers).end(JSON.stringify(items));
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const forge = new Forge(`http://127.0.0.1:${port}`, 't', 'o', 'r');
    const res = await upsertStickyComment(forge, 7, 'mark', ['github-actions[bot]'], stickyBody('mark', [], 'new'));
    expect(res).toEqual({ id: 111, created: false });
    expect(seen.filter((s) => s.startsWith('GET'))).toHaveLength(3);
    expect(seen.at(-1)).toBe('PATCH /repos/o/r/issues/comments/111');
  });
});
