/**
 * A server (or what stands in front of it) that answers something other than what the API
 * promises: a login page with 200, a lying X-Total-Count, paging ignored, a trickling or huge body.
 * Each must end in a clear error or a warning, and never in a plan built from a wrong reading.
 */
import { describe, expect, it } from 'vitest';
import type { ProxiedRequest } from '../support/misbehaving-proxy.js';
import { rootAndAcme, widgetsWithLabels } from '../support/seeds.js';
import { calls, writes } from './helpers.js';
import { proxiedWorlds, type ProxiedWorld, type Rule } from './proxied-world.js';

/** 60 labels, every one declared as it is: the honest plan is empty. */
const { labels: LABELS, seed, config } = widgetsWithLabels(60);

const isLabelList = (r: ProxiedRequest) => r.method === 'GET' && r.path === 'repos/acme/widgets/labels';

const start = proxiedWorlds();
let w: ProxiedWorld;

async function behind(rule: Rule): Promise<{ cli: (args: string[], env?: NodeJS.ProcessEnv) => ReturnType<ProxiedWorld['cli']> }> {
  w = await start(seed, rule);
  const file = w.config(config);
  return { cli: (args, env = {}) => w.viaProxy([...args, '-c', file], env) };
}

describe('an answer that is not JSON of the expected shape', () => {
  it('a login page answered with 200 is an error naming the operation and quoting it; nothing is planned or created', async () => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'html' } : undefined));
    const plan = await cli(['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels');
    expect(plan.stderr).toContain('answered text that is not JSON ("<!DOCTYPE html> <html><head><title>Sign in · Example SSO');
    expect(plan.stderr).toContain('where a list is due: something other than Gitea answers at this URL (a proxy or a login page?); check --url');
    expect(plan.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(plan.stdout).not.toContain('to create');

    const apply = await cli(['apply', '--yes']);
    expect(apply.code).toBe(1);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('a JSON object where a list is due is an error too', async () => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'status', status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' } : undefined));
    const plan = await cli(['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels answered a JSON object with other fields ({"ok":true}) where a list is due');
  });

  it('an empty 200 where JSON is due is an error', async () => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'status', status: 200, body: '' } : undefined));
    const plan = await cli(['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels answered an empty body where a list is due');
  });
});

describe('X-Total-Count is not trusted', () => {
  it.each([
    ['1', /X-Total-Count says 1 but the first page holds 50/],
    ['abc', /X-Total-Count "abc" is not a count/],
    ['-5', /X-Total-Count "-5" is not a count/],
  ])('a header of %s: every page is read until a short one, with a warning; nothing is created twice', async (value, warning) => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'total-count', value } : undefined));
    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    expect(plan.stderr).toMatch(warning);
    expect(plan.stderr).toContain('warning: labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels: ');
    // the fallback is sequential: page 2 (10 labels, short) ends the list
    expect(calls(w.sandbox).filter((c) => c.startsWith('GET repos/acme/widgets/labels'))).toHaveLength(2);
    const apply = await cli(['apply', '--yes']);
    expect(apply.code).toBe(0);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('a header of 100000 does not fetch 2,000 pages: the short page ends the list', async () => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'total-count', value: '100000' } : undefined));
    const plan = await cli(['plan', '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const pages = calls(w.sandbox).filter((c) => c.startsWith('GET repos/acme/widgets/labels')).length;
    expect(pages).toBeGreaterThanOrEqual(2);
    expect(pages).toBeLessThanOrEqual(20); // page 2 is short; at most the pages fetched ahead follow it
    expect(plan.stderr).toContain('X-Total-Count said 100000 but the list held 60');
  });

  it('a server that ignores the page parameter is stopped at the first repeated page (issue 19), as X-Total-Count announced more than that page', async () => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'ignore-page' } : undefined));
    const plan = await cli(['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(
      'labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels failed: page 2 repeats page 1: the server (or a proxy) ignores the page parameter, so the list cannot be read beyond its first 50; stopped',
    );
    // Page 1 and page 2 (the two X-Total-Count announced), not twenty.
    expect(calls(w.sandbox).filter((c) => c.startsWith('GET repos/acme/widgets/labels'))).toHaveLength(2);
  });
});

describe('a list whose full pages add up exactly to X-Total-Count', () => {
  const fifty = LABELS.slice(0, 50);
  const declare = (labels: { name: string; color: string }[]) => `version: 1
repos:
  acme/widgets:
    labels:
${labels.map((l) => `      ${l.name}: { color: "${l.color}" }`).join('\n')}
`;

  it('ends there: no empty page is read by a plan; a create into it first reads the page after (empty), then creates', async () => {
    w = await start({ ...seed, repos: [{ name: 'acme/widgets', labels: fifty }] });
    const plan = await w.cli(['plan', '--detailed-exitcode', '-c', w.config(declare(fifty))]);
    expect(plan.stdout).toContain('No changes.');
    const labelCalls = () => w.sandbox.requests().flatMap((r) => (r.path.endsWith('repos/acme/widgets/labels') ? [`${r.method}${r.query.page ? ` page ${r.query.page}` : ''}`] : []));
    expect(labelCalls()).toEqual(['GET page 1']);

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '--yes', '-c', w.config(declare([...fifty, { name: 'new', color: '112233' }]))]);
    expect(apply.code).toBe(0);
    // then the re-read after creating (src/apply/concurrent.ts): 51 labels now, a short second page
    expect(labelCalls()).toEqual(['GET page 1', 'GET page 2', 'POST', 'GET page 1', 'GET page 2']);
  });

  it('a header too low by a whole page (50 on a list of 60) cannot make apply create a label twice: the create is refused, naming the header', async () => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'total-count', value: '50' } : undefined));
    const apply = await cli(['apply', '--yes']);
    expect(apply.code).toBe(1);
    // The plan could not tell (its creates are what the wrong total shows); apply proves the list before creating.
    expect(apply.stdout).toContain('✗ + label "l50" in repo:acme/widgets: labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels said X-Total-Count 50, yet page 2 holds 10 more: the list cannot be read whole');
    expect(apply.stdout).toContain('Apply incomplete! 0 created');
    expect(apply.stderr + apply.stdout).not.toMatch(/\n\s+at /);
    expect(writes(w.sandbox)).toEqual([]);
    expect(w.sandbox.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/labels') && r.query.page === '2')).toHaveLength(1);
  });
});

describe('the time limit and the size limit cover the whole answer', () => {
  it('a server trickling one byte a second is cut off by --timeout, naming the operation', async () => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'trickle', intervalMs: 200 } : undefined));
    const plan = await cli(['plan', '--timeout', '1'], { FORGEFORM_RETRY_LIMIT: '0' });
    expect(plan.code).toBe(1);
    // The server is heard (this answer's bytes): the request is slow, the server is not unreachable (issue 28).
    expect(plan.stderr).toContain("labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels got no complete answer within 1 s (--timeout), though the server is answering: this request alone is slow or stalls on the server; try again, raise --timeout, or look for it in the server's log");
  });

  it('a read cut off by the time limit is sent again once (not with the whole budget), and its error says so', async () => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'trickle', intervalMs: 200 } : undefined));
    const plan = await cli(['plan', '--timeout', '0.5', '--retries', '3']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain("though the server is answering: this request alone is slow or stalls on the server; try again, raise --timeout, or look for it in the server's log (tried 2 times)");
    expect(w.proxy.seen.filter((s) => s.did === 'trickle')).toHaveLength(2);
  });

  it('an answer over 64 MB is refused cleanly', async () => {
    const { cli } = await behind((r) => (isLabelList(r) ? { type: 'huge', bytes: 65 * 1024 * 1024 } : undefined));
    const plan = await cli(['plan']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels failed: the answer is larger than 64 MB: refused');
    expect(plan.stderr).not.toMatch(/\n\s+at |heap|unexpected error/i);
    expect(w.proxy.seen.filter((s) => s.did === 'huge')).toHaveLength(1); // the same request would bring the same body
  });
});

describe('a count read from X-Total-Count', () => {
  it('a label carried by issues never reads as carried by none when the header is not a count: the delete stays unsafe', async () => {
    w = await start(
      rootAndAcme({ repos: [{ name: 'acme/widgets', labels: [{ name: 'old', color: '999999' }, { name: 'bug', color: 'ee0701' }], issues: [{ title: 'Crash', labels: ['old'], author: 'root' }] }] }),
      (r) => (r.method === 'GET' && r.path === 'repos/acme/widgets/issues' ? { type: 'total-count', value: 'abc' } : undefined),
    );
    const file = w.config('version: 1\npolicy: { prune: [labels] }\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n');
    const plan = await w.viaProxy(['plan', '-c', file]);
    expect(plan.stdout).toContain('carried by 1 issue: deleting it removes it from them');
    expect(plan.stdout).not.toContain('carried by no issue');
    expect(plan.code).toBe(3);
  });
});

describe('an inflated X-Total-Count on the issue list (issue 18)', () => {
  it('only bounds the pages read: they stop at the first short page, and every declared issue is still found', async () => {
    const issues = Array.from({ length: 120 }, (_, i) => ({ title: `Issue ${i + 1}`, author: 'root' }));
    w = await start({ ...seed, repos: [{ name: 'acme/widgets', issues }] }, (r) => (r.method === 'GET' && r.path === 'repos/acme/widgets/issues' ? { type: 'total-count', value: '2000' } : undefined));
    // 110 declared, as they are: the newest 50 come on page 1, 60 are missing; 2,000 announced is 39 more pages, fewer than 60 GETs.
    const file = w.config(`version: 1\nrepos:\n  acme/widgets:\n    issues:\n${Array.from({ length: 110 }, (_, i) => `      ${i + 1}: { title: "Issue ${i + 1}" }\n`).join('')}`);
    const plan = await w.viaProxy(['plan', '--detailed-exitcode', '-c', file]);
    expect(plan.code, plan.stderr).toBe(0);
    const pages = w.proxy.seen.filter((s) => s.method === 'GET' && s.path === 'repos/acme/widgets/issues');
    // Page 1, then pages 2 and 3 (the short one) with 8 at a time fetched ahead: 10 at most, not the 40 it was.
    expect(pages.length).toBeLessThanOrEqual(10);
    expect(w.proxy.seen.filter((s) => /^repos\/acme\/widgets\/issues\/\d+$/.test(s.path))).toEqual([]);
  });
});
