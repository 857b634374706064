/**
 * plan --rehearse when the copy cannot hold what the plan read (issues are not copied, src/sandbox/copy.ts): the
 * output says it was not rehearsed and why in one readable line — the first problems and how many more, not one
 * line per object of a large forge — and the plan's own exit code stands.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rootAnd } from '../support/seeds.js';
import { world, writes, type World } from './helpers.js';

let w: World;
beforeAll(async () => {
  const issues = Array.from({ length: 6 }, (_, i) => ({ title: `Issue ${i + 1}`, body: 'text' }));
  w = await world({ users: rootAnd(), orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets', issues }] });
});
afterAll(async () => w.sandbox.close());

it('names the first three problems and counts the rest', { timeout: 60_000 }, async () => {
  const lines = Array.from({ length: 6 }, (_, i) => `      "${i + 1}": { state: closed }`).join('\n');
  const file = w.config(`version: 1\nrepos:\n  acme/widgets:\n    issues:\n${lines}\n`);
  const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode']);
  expect(r.code, r.stdout + r.stderr).toBe(2);
  const reason = (r.stdout + r.stderr).split('\n').find((l) => l.includes('Not rehearsed: the plan against the copy failed'));
  expect(reason).toBeDefined();
  expect(reason).toContain('issue #1 does not exist');
  expect(reason).toContain('(and 3 more like them)');
  expect(reason).not.toContain('issue #6 does not exist');
  expect(writes(w.sandbox)).toEqual([]);
});

it('an organisation the plan knows only from its repository list (a glob) is an organisation in the copy, not a user', { timeout: 60_000 }, async () => {
  const file = w.config('version: 1\norgs:\n  acme:\n    labels:\n      org-bug: { color: "00ff00" }\nrepos:\n  "acme/*":\n    labels:\n      triage: { color: "ff0000" }\n', 'glob.yaml');
  const r = await w.cli(['plan', '-c', file, '--rehearse', '--detailed-exitcode']);
  expect(r.code, r.stdout + r.stderr).toBe(2);
  expect(r.stdout).toMatch(/Rehearsed on a copy of gitea [\d.]+: 2 changes applied, 0 failed; the plan after it is empty/);
  expect(writes(w.sandbox)).toEqual([]);
});
