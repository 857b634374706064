/**
 * Multi-request creates finish (issue 18 §4): a user create is a POST then a PATCH. A lost answer to
 * the POST: the user is read again and the PATCH sent in the same apply; a failed PATCH is sent again,
 * as a read is (it only sets values).
 */
import { describe, expect, it } from 'vitest';
import { firstTimes } from '../support/misbehaving-proxy.js';
import { rootAnd } from '../support/seeds.js';
import { calls } from './helpers.js';
import { proxiedWorlds, type ProxiedWorld } from './proxied-world.js';

const seed = { users: rootAnd() };
const config = 'version: 1\nusers:\n  bob:\n    email: bob@example.com\n    password: "${BOB_PASSWORD}"\n    prohibit_login: true\n    max_repo_creation: 3\n';

const start = proxiedWorlds();
let w: ProxiedWorld;

describe('a user create (POST, then PATCH)', () => {
  it('whose POST answer is lost is found on the server and finished in the same apply', async () => {
    w = await start(seed, firstTimes(1, (r) => r.method === 'POST' && r.path === 'admin/users', { type: 'drop-after' }));
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)], { FORGEFORM_URL: w.proxy.url, BOB_PASSWORD: 's3cret-Passw0rd!' });
    if (apply.code) console.log(apply.stdout, apply.stderr);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toMatch(/✓ \+ user "bob" .*its answer was lost .*was found on the server and the rest of its requests were sent/);
    expect(calls(w.sandbox).filter((c) => c === 'POST admin/users')).toHaveLength(1);
    expect(calls(w.sandbox).filter((c) => c === 'PATCH admin/users/bob')).toHaveLength(1);
    const bob = (await w.api<{ prohibit_login: boolean }>('GET', 'users/bob')).body;
    expect((await w.api<{ prohibit_login: boolean }[]>('GET', 'admin/users')).body.find((u) => (u as unknown as { login: string }).login === 'bob')?.prohibit_login).toBe(true);
    expect(bob).toBeDefined();
  });

  it('whose PATCH fails once (502) sends it again, as a read: the user is finished', async () => {
    w = await start(seed, firstTimes(1, (r) => r.method === 'PATCH' && r.path === 'admin/users/bob', { type: 'status', status: 502, body: 'Bad Gateway' }));
    const apply = await w.cli(['apply', '--yes', '-c', w.config(config)], { FORGEFORM_URL: w.proxy.url, BOB_PASSWORD: 's3cret-Passw0rd!' });
    if (apply.code) console.log(apply.stdout, apply.stderr);
    expect(apply.code).toBe(0);
    expect(w.proxy.seen.filter((r) => r.method === 'PATCH' && r.path === 'admin/users/bob')).toHaveLength(2);
    expect((await w.api<{ login: string; prohibit_login: boolean }[]>('GET', 'admin/users')).body.find((u) => u.login === 'bob')?.prohibit_login).toBe(true);
  });
});

describe('a user create whose PATCH fails every time', () => {
  it('is shown as unfinished by every later plan, with the settings still to send, until an apply finishes it', async () => {
    w = await start(seed, (r) => (r.method === 'PATCH' && r.path === 'admin/users/bob' ? { type: 'status', status: 502, body: 'Bad Gateway' } : undefined));
    const env = { BOB_PASSWORD: 's3cret-Passw0rd!' };
    const file = w.config(config);
    const apply = await w.cli(['apply', '--yes', '-c', file], { ...env, FORGEFORM_URL: w.proxy.url });
    expect(apply.code).not.toBe(0);
    expect(calls(w.sandbox).filter((c) => c === 'POST admin/users')).toHaveLength(1);
    expect(calls(w.sandbox).filter((c) => c === 'PATCH admin/users/bob')).toHaveLength(0);

    // Every later run (here: straight to the server) sees what is left.
    for (let run = 0; run < 2; run++) {
      const plan = await w.cli(['plan', '--detailed-exitcode', '-c', file], env);
      if (plan.code !== 2) console.log(plan.stdout, plan.stderr);
      expect(plan.code).toBe(2);
      expect(plan.stdout).not.toMatch(/No changes/);
      expect(plan.stdout).toMatch(/~ user "bob"/);
      expect(plan.stdout).toMatch(/unfinished: forgeform created this user/);
      expect(plan.stdout).toMatch(/prohibit_login *: false → true/);
      expect(plan.stdout).toMatch(/max_repo_creation *: null → 3/);
    }

    const finish = await w.cli(['apply', '--yes', '-c', file], env);
    if (finish.code) console.log(finish.stdout, finish.stderr);
    expect(finish.code).toBe(0);
    const bob = (await w.api<{ login: string; prohibit_login: boolean; login_name: string }[]>('GET', 'admin/users')).body.find((u) => u.login === 'bob');
    expect(bob?.prohibit_login).toBe(true);
    expect(bob?.login_name).toBe('bob');
    const after = await w.cli(['plan', '--detailed-exitcode', '-c', file], env);
    expect(after.stdout).toMatch(/No changes/);
    expect(after.code).toBe(0);
  });
});
