/**
 * `exclude:` on a glob entry (issue 30): `acme/*` with exceptions. Excluded repositories get nothing from the glob
 * (an exact entry still applies to them), names and globs compare as the server compares names, an exclude that
 * matches nothing is a warning, and `exclude:` on an exact entry is refused at its place before any request that
 * writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, writes, type World } from './helpers.js';
import { rootAnd } from '../support/seeds.js';

let w: World;
beforeAll(async () => {
  w = await world({
    users: rootAnd(),
    orgs: [{ name: 'acme', owners: ['root'] }],
    repos: ['acme/widgets', 'acme/gadgets', 'acme/legacy', 'acme/archive-2019', 'acme/archive-2020'].map((name) => ({ name })),
  });
});
afterAll(async () => w.sandbox.close());

/** The repositories a text plan creates the label `triage` in (each under its `# repo:` heading). */
const labelled = (stdout: string) =>
  stdout
    .split(/^\s*# /m)
    .filter((part) => /^\s*\+ label "triage"$/m.test(part))
    .map((part) => /^repo:(\S+)/.exec(part)?.[1] ?? '?')
    .sort();

describe('exclude: on a glob entry', () => {
  it('leaves out the repositories it names, by full name, by bare name or by glob, case-insensitively', async () => {
    const text = `version: 1
repos:
  "acme/*":
    exclude: [acme/LEGACY, "archive-*"]
    labels:
      triage: { color: "00ff00" }
`;
    const plan = await w.cli(['plan', '-c', w.config(text), '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(labelled(plan.stdout)).toEqual(['acme/gadgets', 'acme/widgets']);
    expect(plan.stdout + plan.stderr).not.toMatch(/Warning: exclude/);
  });

  it('an exact entry of an excluded repository still applies to it; an exclude that matches nothing is a warning', async () => {
    const text = `version: 1
repos:
  "acme/*":
    exclude: [legacy, acme/nothing-like-this]
    labels:
      triage: { color: "00ff00" }
  acme/legacy:
    labels:
      triage: { color: "ff0000" }
`;
    const file = w.config(text, 'exact.yaml');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(labelled(plan.stdout)).toEqual(['acme/archive-2019', 'acme/archive-2020', 'acme/gadgets', 'acme/legacy', 'acme/widgets']);
    expect(plan.stdout).toMatch(/# repo:acme\/legacy\n\s*\+ label "triage"\n\s*\+ color = "ff0000"/);
    expect(plan.stdout).toContain('Warning: exclude "acme/nothing-like-this" of repos "acme/*" matches none of its repositories: nothing is excluded by it');
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });

  it('is refused on an exact entry, at its place, and nothing is written', async () => {
    const before = writes(w.sandbox).length;
    const text = 'version: 1\nrepos:\n  acme/widgets:\n    exclude: [acme/gadgets]\n    labels: {}\n';
    const file = w.config(text, 'exact-exclude.yaml');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:4:5: exclude: is for a glob entry ("acme/*"); "acme/widgets" names one repository`);
    expect(writes(w.sandbox).length).toBe(before);
  });
});
