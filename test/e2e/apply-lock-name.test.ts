/**
 * The lock's name can be set in policy (issue 28 item 5): where `forgeform-lock` is taken (a user of
 * that name, another user's organisation), `policy.apply_lock` names the organisation apply takes,
 * the messages name it in the unlock command, plan leaves it out of the organisations it reads and
 * prunes, a saved plan keeps it, and `unlock`/`export` take it with `--lock-name`.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { type World, world, writes } from './helpers.js';
import { lockCalls } from '../support/requests.js';

const base = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    // The default name is taken: no organisation of that name can be made.
    { username: 'forgeform-lock', email: 'squatter@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets' }],
};
const labels = `repos:\n  acme/widgets:\n    labels:\n      bug: { color: "ee0701" }\n`;
const named = `version: 1\npolicy:\n  apply_lock: ops-lock\n${labels}`;
const at = (offsetMs = 0) => new Date(Date.now() + offsetMs).toISOString().replace(/\.\d+Z$/, 'Z');
const heldBy = (id: string) => `Held by forgeform apply: user=ci host=build-7 pid=4242 since=${at()} renewed=${at()} id=${id}`;

let w: World;
afterEach(async () => w?.sandbox.close());

const sent = () => w.sandbox.requests().map((r) => `${r.method} ${r.path.replace(/^\/api\/v1\//, '')}${r.method === 'POST' && r.path === '/api/v1/orgs' ? ` ${(r.body as { username?: string }).username}` : ''}`);

describe('policy.apply_lock', () => {
  it('where a user named forgeform-lock exists, apply fails with the default name and succeeds with the configured one, which it takes and gives back', async () => {
    w = await world(base);
    const refused = await w.cli(['apply', '--yes', '-c', w.config(`version: 1\n${labels}`)]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('a user named "forgeform-lock" exists: the apply lock is an organisation of that name, and cannot be made');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '--yes', '-c', w.config(named)]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('Apply complete!');
    const lock = sent().filter((c) => c.includes('ops-lock') || c.includes('forgeform-lock'));
    expect(lock).toEqual(['POST orgs ops-lock', 'GET orgs/ops-lock', 'DELETE orgs/ops-lock']);
    // The test helpers follow the configured name: the lock's requests are its, not the configuration's writes.
    expect(lockCalls(w.sandbox, 'ops-lock')).toEqual(['POST orgs', 'GET orgs/ops-lock', 'DELETE orgs/ops-lock']);
    expect(writes(w.sandbox, 'ops-lock')).toEqual(['POST repos/acme/widgets/labels']);
    expect((await w.api('GET', 'orgs/ops-lock')).status).toBe(404);
  });

  it('a held lock of that name refuses apply naming `forgeform unlock --lock-name NAME ID`, which removes it', async () => {
    w = await world({ ...base, orgs: [...base.orgs, { name: 'ops-lock', owners: ['root'], visibility: 'private', description: heldBy('abc123') }] });
    const apply = await w.cli(['apply', '--yes', '-c', w.config(named)]);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('another apply holds the server: held by ci on host "build-7"');
    expect(apply.stderr).toContain('remove the lock with: forgeform unlock --lock-name ops-lock abc123');
    // Its one write: the create the server refuses (the name is held).
    expect(sent().filter((c) => !c.startsWith('GET'))).toEqual(['POST orgs ops-lock']);
    const shown = await w.cli(['unlock', '--lock-name', 'ops-lock']);
    expect(shown.stdout).toContain('If no apply is running, remove the lock with: forgeform unlock --lock-name ops-lock abc123');
    // Without --lock-name, unlock looks at forgeform-lock (here a user) and removes nothing.
    expect((await w.cli(['unlock', 'abc123'])).stderr).toContain('a user named "forgeform-lock" exists');
    expect((await w.api('GET', 'orgs/ops-lock')).status).toBe(200);
    const unlock = await w.cli(['unlock', '--lock-name', 'ops-lock', 'abc123']);
    expect(unlock.code).toBe(0);
    expect((await w.api('GET', 'orgs/ops-lock')).status).toBe(404);
  });

  it('export leaves out the organisation --lock-name names (without it, that organisation is one like any other)', async () => {
    w = await world({ ...base, orgs: [...base.orgs, { name: 'ops-lock', owners: ['root'], visibility: 'private', description: heldBy('abc123') }] });
    const out = `${w.dir}/exported.yaml`;
    expect((await w.cli(['export', '--include', 'orgs', '-o', out, '--lock-name', 'ops-lock'])).code).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/^ {2}acme:/m);
    expect(text).not.toContain('ops-lock');
    const all = `${w.dir}/all.yaml`;
    expect((await w.cli(['export', '--include', 'orgs', '-o', all])).code).toBe(0);
    expect(readFileSync(all, 'utf8')).toMatch(/^ {2}ops-lock:/m);
    // Everything (the organisations discovered): neither among the organisations nor as an owner of repositories.
    const everything = `${w.dir}/everything.yaml`;
    expect((await w.cli(['export', '-o', everything, '--lock-name', 'ops-lock'])).code).toBe(0);
    expect(readFileSync(everything, 'utf8')).not.toContain('ops-lock');
  });

  it('a saved plan takes the lock its policy names; an edit of that name in the file is shown by apply', async () => {
    w = await world(base);
    const file = `${w.dir}/plan.json`;
    const plan = await w.cli(['plan', '-c', w.config(named), '--out', file]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Policy: prune [], max_deletes 10, max_delete_fraction 0.3, apply_lock ops-lock');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', file]);
    expect(apply.code, apply.stderr).toBe(0);
    expect(apply.stdout).toContain('apply_lock ops-lock');
    expect(sent().filter((c) => c.includes('lock'))).toEqual(['POST orgs ops-lock', 'GET orgs/ops-lock', 'DELETE orgs/ops-lock']);
  });

  it('a name no organisation can have is a config error at its place; --lock-name is checked the same way', async () => {
    w = await world(base);
    const file = w.config(`version: 1\npolicy:\n  apply_lock: "ops lock!"\n${labels}`);
    const validate = await w.cli(['validate', '-c', file]);
    expect(validate.code).toBe(1);
    expect(validate.stderr).toMatch(/forgeform\.yaml:3:\d+: .*apply_lock.*must be a name an organisation can have/);
    const unlock = await w.cli(['unlock', '--lock-name', '../x']);
    expect(unlock.code).toBe(1);
    expect(unlock.stderr).toContain('--lock-name "../x" is not a name an organisation can have');
    expect(w.sandbox.requests()).toEqual([]);
  });
});
