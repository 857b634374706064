/**
 * An exact entry that drops what it inherits from a glob (issue 30): `branch_protections: { main: null }` drops one
 * object the glob gives, `inherit: false` takes nothing from the globs; with prune the dropped object is deleted as
 * any undeclared one, without it kept. A null or `inherit:` on a glob is refused at its place, a drop that finds
 * nothing is a warning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, writes, type World } from './helpers.js';
import { rootAnd } from '../support/seeds.js';

let w: World;
beforeAll(async () => {
  w = await world({
    users: rootAnd(),
    orgs: [{ name: 'acme', owners: ['root'] }],
    repos: ['acme/widgets', 'acme/gadgets', 'acme/legacy'].map((name) => ({ name })),
  });
});
afterAll(async () => w.sandbox.close());

/** The `+ kind "name"` lines of a text plan, by repository heading. */
const created = (stdout: string) =>
  Object.fromEntries(
    stdout
      .split(/^\s*# /m)
      .map((part) => [/^repo:(\S+)/.exec(part)?.[1], [...part.matchAll(/^\s*\+ (label|branch protection) "([^"]+)"$/gm)].map((m) => `${m[1]} ${m[2]}`).sort()] as const)
      .filter(([repo]) => repo !== undefined),
  );

const GLOB = `  "acme/*":
    labels:
      triage: { color: "00ff00" }
      bug: { color: "ee0701" }
    branch_protections:
      main: { required_approvals: 1 }
`;

describe('an exact entry drops what a glob gives it', () => {
  it('name: null drops one object, inherit: false drops all, the rest of the glob still applies', async () => {
    const text = `version: 1
repos:
${GLOB}  acme/legacy:
    branch_protections:
      main: null
    labels:
      bug: null
  acme/gadgets:
    inherit: false
    labels:
      own: { color: "0000ff" }
`;
    const file = w.config(text, 'drop.yaml');
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stderr).toBe(2);
    expect(created(plan.stdout)).toEqual({
      'acme/gadgets': ['label own'],
      'acme/legacy': ['label triage'],
      'acme/widgets': ['branch protection main', 'label bug', 'label triage'],
    });
    expect(plan.stderr).not.toMatch(/Warning/);
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stderr).toBe(0);
    expect(await labelsOf('acme/legacy')).toEqual(['triage']);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout).toBe(0);
  });

  it('with prune, a dropped object the server has is deleted as any undeclared one; without, it is kept and said', async () => {
    // acme/widgets has `bug` from the first test; now it drops it.
    const base = `version: 1
repos:
${GLOB}  acme/widgets:
    labels:
      bug: null
`;
    const kept = await w.cli(['plan', '-c', w.config(base, 'kept.yaml')]);
    expect(kept.code, kept.stderr).toBe(0);
    expect(kept.stdout).not.toMatch(/- label "bug"/);
    expect(kept.stdout).toMatch(/Kept:.*label/s);
    const pruned = await w.cli(['plan', '-c', w.config(`${base}policy:\n  prune: [labels]\n`, 'pruned.yaml')]);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stdout).toMatch(/# repo:acme\/widgets\n\s*- label "bug"/);
  });

  it('a drop that finds nothing is a warning naming the repository and the object', async () => {
    const text = `version: 1
repos:
${GLOB}  acme/widgets:
    labels:
      bgu: null
    collaborators: { bob: null }
    secrets: { DEPLOY_KEY: null }
    variables: { REGION: null }
    tag_protections: { "v*": null }
`;
    const plan = await w.cli(['plan', '-c', w.config(text, 'typo.yaml')]);
    expect(plan.code, plan.stderr).toBe(0);
    expect(plan.stdout + plan.stderr).toContain('repos "acme/widgets": labels."bgu" is null, which drops an object a glob gives the repository, but no glob that matches it declares one: nothing is dropped');
    for (const dropped of ['collaborators."bob"', 'secrets."DEPLOY_KEY"', 'variables."REGION"', 'tag_protections."v*"']) expect(plan.stdout + plan.stderr).toContain(`repos "acme/widgets": ${dropped} is null`);
  });

  it('null and inherit: on a glob are refused at their place, and nothing is written', async () => {
    const before = writes(w.sandbox).length;
    const text = 'version: 1\nrepos:\n  "acme/*":\n    inherit: false\n    labels:\n      bug: null\n';
    const file = w.config(text, 'glob-null.yaml');
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(`${file}:4:5: inherit: is for an exact entry ("acme/widgets"), which inherits from the globs that match it; "acme/*" is a glob: remove it`);
    expect(apply.stderr).toContain(`${file}:6:7: null drops an object a repository inherits from a glob; "acme/*" is a glob and inherits nothing`);
    expect(writes(w.sandbox).length).toBe(before);
  });

  it('the schema still refuses null where it drops nothing (a field), at its place', async () => {
    const text = 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: null }\n';
    const file = w.config(text, 'field-null.yaml');
    const plan = await w.cli(['validate', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:5:21:`);
  });
});

async function labelsOf(repo: string): Promise<string[]> {
  const res = await w.api<{ name: string }[]>('GET', `/repos/${repo}/labels`);
  return res.body.map((l) => l.name).sort();
}
