/**
 * plan --explain (issue 30): each value of a change says where the configuration sets it — the exact entry over
 * the globs, the later glob over the earlier, the object's place for a default — in text, markdown and JSON; a
 * saved plan never holds it, and without the flag nothing changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './helpers.js';
import { rootAnd } from '../support/seeds.js';

let w: World;
let base: string;
let repos: string;
beforeAll(async () => {
  w = await world({ users: rootAnd(), orgs: [{ name: 'acme', owners: ['root'] }], repos: ['acme/widgets', 'acme/gadgets'].map((name) => ({ name })) });
  base = w.config('version: 1\nrepos:\n  "acme/*":\n    labels:\n      triage: { color: "00ff00", description: from the glob }\n', 'base.yaml');
  repos = w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      triage: { color: "ff0000" }\n', 'widgets.yaml');
});
afterAll(async () => w.sandbox.close());

describe('plan --explain', () => {
  it('names the file:line:col that sets each value, the exact entry over the glob', async () => {
    const plan = await w.cli(['plan', '-c', base, '-c', repos, '--explain']);
    expect(plan.code, plan.stderr).toBe(0);
    const widgets = plan.stdout.slice(plan.stdout.indexOf('# repo:acme/widgets'));
    expect(widgets).toMatch(new RegExp(`\\+ color\\s+= "ff0000"  # ${escape(repos)}:5:24\\n`));
    expect(widgets).toMatch(new RegExp(`\\+ description = "from the glob"  # ${escape(base)}:5:47 \\(repos "acme/\\*"\\)`));
    const gadgets = plan.stdout.slice(plan.stdout.indexOf('# repo:acme/gadgets'), plan.stdout.indexOf('# repo:acme/widgets'));
    expect(gadgets).toMatch(new RegExp(`\\+ color\\s+= "00ff00"  # ${escape(base)}:5:24 \\(repos "acme/\\*"\\)`));
  });

  it('is in JSON as each field\'s source, never in the plan file, and absent without the flag', async () => {
    const out = join(w.dir, 'explained.plan');
    const json = await w.cli(['plan', '-c', base, '-c', repos, '--explain', '--format', 'json', '--out', out]);
    expect(json.code, json.stderr).toBe(0);
    const plan = JSON.parse(json.stdout) as { changes: { scope: string; fields: { path: string; source?: string }[] }[] };
    const color = plan.changes.find((c) => c.scope === 'repo:acme/widgets')?.fields.find((f) => f.path === 'color');
    expect(color?.source).toBe(`${repos}:5:24`);
    expect(readFileSync(out, 'utf8')).not.toContain('"source"');
    const plain = await w.cli(['plan', '-c', base, '-c', repos]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).not.toMatch(/= "[^"]*" {2}# /);
    expect(plain.stdout).toMatch(/\+ color\s+= "ff0000"\n/);
  });
});

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
