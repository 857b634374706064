import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './helpers.js';

let w: World;
beforeAll(async () => {
  w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }], orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets' }] });
});
afterAll(async () => w.sandbox.close());

const cases: { name: string; yaml: string; where: string; text: RegExp; env?: Record<string, string> }[] = [
  {
    name: 'YAML syntax error',
    yaml: 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }}\n',
    where: '5:29',
    text: /YAML syntax error: Unexpected flow-map-end token/,
  },
  {
    name: 'unknown key',
    yaml: 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { colour: ee0701 }\n',
    where: '5:14',
    text: /unknown key "colour".*did you mean "color"/,
  },
  {
    name: 'wrong type',
    yaml: 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug:\n        color: ee0701\n        exclusive: "yes"\n',
    where: '7:20',
    text: /exclusive must be boolean/,
  },
  {
    name: 'value out of enum',
    yaml: 'version: 1\npolicy:\n  prune: [labels, label]\n',
    where: '3:19',
    text: /must be one of .*did you mean "labels"/,
  },
  {
    name: 'unset environment variable',
    yaml: 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701, description: "${NOT_SET_ANYWHERE}" }\n',
    where: '5:42',
    text: /environment variable NOT_SET_ANYWHERE is not set/,
  },
];

describe('config errors', () => {
  for (const c of cases) {
    it(`${c.name}: names file:line:col, exits 1 and sends nothing`, async () => {
      w.sandbox.clearRequests();
      const file = w.config(c.yaml, `${c.name.replace(/\W+/g, '-')}.yaml`);
      for (const cmd of ['validate', 'plan']) {
        const r = await w.cli([cmd, '-c', file]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`${file}:${c.where}`);
        expect(r.stderr).toMatch(c.text);
        expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
      }
      expect(w.sandbox.requests()).toEqual([]);
    });
  }

  it('the same repository declared in two files names both places', async () => {
    w.sandbox.clearRequests();
    const dir = `${w.dir}/split`;
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/a.yaml`, 'version: 1\nrepos:\n  acme/widgets:\n    labels: {}\n');
    writeFileSync(`${dir}/b.yaml`, 'version: 1\nrepos:\n  other/thing: {}\n  acme/widgets:\n    labels: {}\n');
    const r = await w.cli(['plan', '-c', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${dir}/a.yaml:3:3`);
    expect(r.stderr).toContain(`${dir}/b.yaml:4:3`);
    expect(w.sandbox.requests()).toEqual([]);
  });

  it('a repository that does not exist is a plan error at its config line', async () => {
    const file = w.config('version: 1\nrepos:\n  acme/nope:\n    labels:\n      bug: { color: ee0701 }\n', 'missing-repo.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${file}:3:3: repository acme/nope does not exist`));
  });
});
