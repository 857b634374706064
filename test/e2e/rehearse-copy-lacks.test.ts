/**
 * plan --rehearse where the copy must make out what the plan read (src/sandbox/copy.ts): an organisation known only
 * from its repository list. (A copy the plan cannot be made against says why in one readable line:
 * test/unit/rehearse-copy.test.ts; chosen issues are copied: rehearse-issues.test.ts.)
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rootAnd } from '../support/seeds.js';
import { world, writes, type World } from './helpers.js';

let w: World;
beforeAll(async () => {
  w = await world({ users: rootAnd(), orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets' }] });
});
afterAll(async () => w.sandbox.close());

it('an organisation the plan knows only from its repository list (a glob) is an organisation in the copy, not a user', { timeout: 60_000 }, async () => {
  const file = w.config('version: 1\norgs:\n  acme:\n    labels:\n      org-bug: { color: "00ff00" }\nrepos:\n  "acme/*":\n    labels:\n      triage: { color: "ff0000" }\n', 'glob.yaml');
  const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode']);
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toMatch(/Rehearsed on a copy of gitea [\d.]+: 2 changes applied, 0 failed; the plan after it is empty/);
  expect(writes(w.sandbox)).toEqual([]);
});
