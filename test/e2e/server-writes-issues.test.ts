// Issue edits on releases without content_version (docs/servers-writes.md): forgeform checks the body
// itself before it writes, and the saved plan's digest covers the body.
import { readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { calls, world, type World } from './helpers.js';

const seed: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [
    {
      name: 'acme/widgets',
      labels: [{ name: 'bug', color: 'ee0701' }],
      issues: [
        { title: 'One', body: 'first', author: 'alice' },
        { title: 'Two', body: 'second', author: 'alice' },
      ],
    },
  ],
};

const config = `version: 1
repos:
  acme/widgets:
    issues:
      1: { body: "planned body", labels: [bug] }
      2: { body: "also planned" }
`;

/**
 * A loopback proxy in front of the sandbox that lets the test act while forgeform waits for an answer:
 * when `when` matches a request, `then` runs after the sandbox answered it and before forgeform gets
 * the answer (once, after arm()). That places a human's edit exactly between two of forgeform's requests.
 */
async function interposer(target: string, when: (method: string, url: string) => boolean, then: () => Promise<void>): Promise<{ url: string; server: Server; arm: () => void }> {
  let fired = true;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const up = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          const act = !fired && when(req.method ?? '', req.url ?? '');
          if (act) fired = true;
          void (act ? then() : Promise.resolve()).then(() => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          });
        });
      });
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, arm: () => (fired = false) };
}

/** The read of the issues a plan (or a saved plan's check) makes: the repository's issue list. */
const issueListRead = (method: string, url: string) => method === 'GET' && url.startsWith('/api/v1/repos/acme/widgets/issues?');

let w: World;
let proxy: Server | undefined;
afterEach(async () => {
  proxy?.close();
  proxy = undefined;
  await w?.sandbox.close();
});

const body = async (n: number) => (await w.api<{ body: string; labels: { name: string }[] }>('GET', `repos/acme/widgets/issues/${n}`)).body;
const humanEdit = async () => {
  expect((await w.api('PATCH', 'repos/acme/widgets/issues/1', { body: 'edited by a human' })).status).toBe(201);
};

describe('issue bodies on Gitea 1.25 (no content_version): forgeform checks them itself', () => {
  it('the plan says the check is forgeform’s, and sends no content_version the server would ignore', async () => {
    w = await world(seed, { flavour: 'gitea@1.25' });
    const file = w.config(config);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(
      '# the body is checked by forgeform, not by the server: Gitea 1.25.4 ignores content_version, so apply reads the issue again right before its first write and refuses the edit if the body changed since the plan (an edit made between that read and the write is still overwritten)',
    );
    expect(plan.stdout).not.toContain('content_version =');
    const json = JSON.parse((await w.cli(['plan', '-c', file, '--format', 'json'])).stdout);
    const one = json.changes.find((c: { key: string }) => c.key === '#1');
    expect(one.ops.map((o: { method: string; path: string }) => `${o.method} ${o.path}`)).toEqual(['GET repos/acme/widgets/issues/1', 'POST repos/acme/widgets/issues/1/labels', 'PATCH repos/acme/widgets/issues/1']);
    expect(one.ops[2].body).toEqual({ body: 'planned body' });
    w.sandbox.clearRequests();
    expect((await w.cli(['apply', '-c', file, '--yes'])).code).toBe(0);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    expect((await body(1)).body).toBe('planned body');
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });

  it('apply PLANFILE: a body edited after the plan makes the saved plan stale for that issue, and the plan is refused whole', async () => {
    w = await world(seed, { flavour: 'gitea@1.25' });
    const planFile = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', w.config(config), '--out', planFile])).code).toBe(0);
    await humanEdit();
    const apply = await w.cli(['apply', planFile]);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(/✗ ~ issue "#1" in repo:acme\/widgets: changed on the server since the plan was made \(stale plan\): plan again/);
    expect(apply.stdout).not.toContain('✓ ~ issue "#2" in repo:acme/widgets');
    expect(apply.stderr).toContain('Refusing the plan file: 1 of 2 changes no longer holds on the server as it is now');
    expect((await body(1)).body).toBe('edited by a human');
    expect((await body(2)).body).not.toBe('also planned');
  });

  it('apply PLANFILE: a body edited after apply checked the plan, before it writes, is refused by the re-read (nothing of that issue is written)', async () => {
    w = await world(seed, { flavour: 'gitea@1.25' });
    const p = await interposer(w.sandbox.url, issueListRead, humanEdit);
    proxy = p.server;
    const planFile = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', w.config(config), '--out', planFile], { FORGEFORM_URL: p.url })).code).toBe(0);
    p.arm();
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', planFile], { FORGEFORM_URL: p.url });
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain(
      '✗ ~ issue "#1" in repo:acme/widgets: issue #1 of acme/widgets: its body changed since the plan was made (checked by forgeform: the server has no content_version to refuse a stale edit): plan again',
    );
    expect(apply.stdout).toContain('✓ ~ issue "#2" in repo:acme/widgets');
    const issue = await body(1);
    expect(issue.body).toBe('edited by a human');
    expect(issue.labels).toEqual([]);
    expect(calls(w.sandbox).filter((c) => c.includes('issues/1') && !c.startsWith('GET'))).toEqual(['PATCH repos/acme/widgets/issues/1']);
  });

  it('apply -c: a body edited between the plan’s read and the write is refused by the re-read', async () => {
    w = await world(seed, { flavour: 'gitea@1.25' });
    const p = await interposer(w.sandbox.url, issueListRead, humanEdit);
    proxy = p.server;
    p.arm();
    const apply = await w.cli(['apply', '-c', w.config(config), '--yes'], { FORGEFORM_URL: p.url });
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('✗ ~ issue "#1" in repo:acme/widgets: issue #1 of acme/widgets: its body changed since the plan was made (checked by forgeform');
    expect(apply.stdout).toContain('✓ ~ issue "#2" in repo:acme/widgets');
    expect((await body(1)).body).toBe('edited by a human');
    expect((await body(2)).body).toBe('also planned');
  });

  it('a saved plan whose re-read was taken out is refused as edited', async () => {
    w = await world(seed, { flavour: 'gitea@1.25' });
    const planFile = `${w.dir}/plan.json`;
    expect((await w.cli(['plan', '-c', w.config(config), '--out', planFile])).code).toBe(0);
    const plan = JSON.parse(readFileSync(planFile, 'utf8'));
    plan.changes[0].ops.shift();
    const edited = w.config(JSON.stringify(plan), 'edited.json');
    const r = await w.cli(['apply', edited]);
    expect(r.code).toBe(1);
    expect(`${r.stdout}${r.stderr}`).toContain('the requests in the plan file differ from what the change shows');
    expect((await body(1)).body).toBe('first');
  });
});

describe('issue bodies where the server locks them (content_version)', () => {
  it('no re-read: the edit carries content_version and the plan shows it', async () => {
    w = await world(seed, { flavour: 'gitea@main' });
    const json = JSON.parse((await w.cli(['plan', '-c', w.config(config), '--format', 'json'])).stdout);
    const one = json.changes.find((c: { key: string }) => c.key === '#1');
    expect(one.ops.map((o: { method: string }) => o.method)).toEqual(['POST', 'PATCH']);
    expect(one.ops[1].body.content_version).toBeTypeOf('number');
    expect(one.notes ?? []).toEqual([]);
  });
});

describe('issue due dates on a server east of UTC', () => {
  it('a due date set on a server in Tokyo time reads back as the same day, so a second plan is empty', async () => {
    w = await world(
      { ...seed, repos: [{ name: 'acme/widgets', issues: [{ title: 'Due', author: 'alice', due_date: '2026-12-24' }] }] },
      { flavour: 'gitea@1.25', timezone: 'Asia/Tokyo' },
    );
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    issues:\n      1: { due_date: 2027-01-15 }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.stdout).toMatch(/~ due_date\s*: "2026-12-24" → "2027-01-15"/);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(apply.stdout).not.toContain('did not take');
    expect(w.sandbox.requests().find((r) => r.method === 'PATCH')!.body).toEqual({ due_date: '2027-01-15T00:00:00+09:00' });
    const issue = (await w.api<{ due_date: string }>('GET', 'repos/acme/widgets/issues/1')).body;
    expect(issue.due_date).toBe('2027-01-15T23:59:59+09:00');
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });
});
