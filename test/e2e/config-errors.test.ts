import { randomBytes } from 'node:crypto';
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
    // A colour written with "#" in flow style: YAML reads the rest of the line as a comment and complains lines later.
    name: 'unquoted # in a flow map',
    yaml: 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: #ee0701 }\n      feature: { color: 00ff00 }\n',
    where: '5:21',
    text: /an unquoted "#" inside \{ \} starts a comment.*quote the value \("#ee0701"\)/,
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
        // validate needs --require-env to fail on an unset variable (issue 17: it runs offline, without the secrets)
        const r = await w.cli([cmd, '-c', file, ...(cmd === 'validate' ? ['--require-env'] : [])]);
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`${file}:${c.where}`);
        expect(r.stderr).toMatch(c.text);
        expect(r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
      }
      expect(w.sandbox.requests()).toEqual([]);
    });
  }

  it('validate runs offline without the variables the config reads: references checked, values not, the unset ones named', async () => {
    const file = w.config('version: 1\nusers:\n  alice: { email: "${ALICE_EMAIL}", password: "${ALICE_PASSWORD}" }\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701, description: "${DESC}" }\n', 'offline.yaml');
    const ok = await w.cli(['validate', '-c', file], { DESC: 'Something is broken' });
    expect(ok.stderr).toBe('Note: not set, so their values were not checked (plan needs them; --require-env checks them): ALICE_EMAIL, ALICE_PASSWORD\n');
    expect(ok.stdout).toContain('The configuration is valid');
    expect(ok.code).toBe(0);
    const strict = await w.cli(['validate', '-c', file, '--require-env'], { DESC: 'Something is broken' });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain(`${file}:3:19: environment variable ALICE_EMAIL is not set`);
    // A malformed reference is an error offline too.
    const bad = w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701, description: "${not valid}" }\n', 'offline-bad.yaml');
    const r = await w.cli(['validate', '-c', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('invalid reference');
  });

  it("one repository's labels in one file and its branch protections in another: plan and apply both", async () => {
    const dir = join(w.dir, 'split');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'labels.yaml'), 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      split-bug: { color: ee0701 }\n');
    writeFileSync(
      join(dir, 'protections.yaml'),
      'version: 1\nrepos:\n  acme/widgets:\n    branch_protections:\n      main: { required_approvals: 2 }\n    labels:\n      split-bug: { description: "Something is broken" }\n',
    );
    const plan = await w.cli(['plan', '-c', dir]);
    expect(plan.stderr).not.toMatch(/error|declared twice/i);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/\+ label "split-bug"\n\s+\+ color\s+= "ee0701"\n\s+\+ description = "Something is broken"/);
    expect(plan.stdout).toMatch(/\+ branch protection "main"\n(\s+\+ .*\n)*\s+\+ required_approvals\s*= 2/);
    const apply = await w.cli(['apply', '-c', dir, '--yes']);
    expect(apply.code).toBe(0);
    const labels = await w.api<{ name: string; color: string; description: string }[]>('GET', 'repos/acme/widgets/labels');
    expect(labels.body.find((l) => l.name === 'split-bug')).toMatchObject({ color: 'ee0701', description: 'Something is broken' });
    const rules = await w.api<{ rule_name: string; required_approvals: number }[]>('GET', 'repos/acme/widgets/branch_protections');
    expect(rules.body.find((r) => r.rule_name === 'main')).toMatchObject({ required_approvals: 2 });
  });

  it('the same field of one repository in two files names both places and sends nothing', async () => {
    w.sandbox.clearRequests();
    const dir = join(w.dir, 'twice');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.yaml'), 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n');
    writeFileSync(join(dir, 'b.yaml'), 'version: 1\nrepos:\n  other/thing: {}\n  acme/widgets:\n    labels:\n      bug: { color: "00ff00" }\n');
    for (const cmd of ['validate', 'plan']) {
      const r = await w.cli([cmd, '-c', dir]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(
        `${dir}/b.yaml:6:14: repos."acme/widgets".labels.bug.color is declared twice: ${dir}/a.yaml:5:14 and ${dir}/b.yaml:6:14`,
      );
    }
    expect(w.sandbox.requests()).toEqual([]);
  });

  it('a plan error about a value from the second file names that file', async () => {
    const dir = join(w.dir, 'split-missing');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.yaml'), 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n');
    writeFileSync(join(dir, 'b.yaml'), 'version: 1\nrepos:\n  acme/widgets:\n    branch_protections: {}\n  acme/nope:\n    labels: {}\n');
    const r = await w.cli(['plan', '-c', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${dir}/b.yaml:5:3: repository acme/nope does not exist`);
  });

  it('a repository that does not exist is a plan error at its config line', async () => {
    const file = w.config('version: 1\nrepos:\n  acme/nope:\n    labels:\n      bug: { color: ee0701 }\n', 'missing-repo.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`${file}:3:3: repository acme/nope does not exist`));
  });

  describe('a file that is not a config', () => {
    const TOKEN = '5f4dcc3b5aa765d61d8327deb882cf99a1b2c3d4';
    const inputs: { name: string; write: (file: string) => void; text: string }[] = [
      {
        name: 'a .env file',
        write: (f) => writeFileSync(f, `# deploy settings\nFORGEFORM_TOKEN=${TOKEN}\nFORGEFORM_URL=https://git.example.com\n`),
        text: ':2:1: not a forgeform config: expected a YAML map that starts with "version: 1", got a single value',
      },
      {
        name: 'a .env file with KEY: VALUE lines mixed in',
        write: (f) => writeFileSync(f, `version: 1\nFORGEFORM_TOKEN: ${TOKEN}\nrepos:\n  "GITEA_TOKEN=${TOKEN}": {}\n`),
        text: ':4:3: key "GITEA_TOKEN=***" in repos must be',
      },
      {
        name: 'a server URL with a user name and password',
        write: (f) => writeFileSync(f, `version: 1\nserver:\n  url: "https://root:${TOKEN}@git.example.com"\n`),
        text: ':3:8: server.url must be an http:// or https:// URL like "https://git.example.com", without a user name or password (give a token with FORGEFORM_TOKEN or --token-file), got "https://root:***@git.example.com"',
      },
      {
        name: 'a 2 MB binary file',
        write: (f) => writeFileSync(f, Buffer.concat([Buffer.from(`FORGEFORM_TOKEN=${TOKEN}\n`), randomBytes(2 * 1024 * 1024)])),
        text: ': not a text file (it holds binary data): a config is a YAML text file',
      },
      {
        name: 'a file over the 5 MB bound',
        write: (f) => {
          writeFileSync(f, `FORGEFORM_TOKEN=${TOKEN}\n`);
          truncateSync(f, 6 * 1024 * 1024);
        },
        text: ': the file is 6.0 MB: a config may hold at most 5.0 MB in all (is this the right file?)',
      },
    ];
    for (const input of inputs) {
      it(`${input.name}: a short message naming the file, no token, exit 1, no request`, async () => {
        w.sandbox.clearRequests();
        const file = join(w.dir, `not-config-${input.name.replace(/\W+/g, '-')}`);
        input.write(file);
        for (const cmd of ['validate', 'plan']) {
          const r = await w.cli([cmd, '-c', file]);
          expect(r.code).toBe(1);
          expect(r.stderr).toContain(`${file}${input.text}`);
          expect(r.stderr.length).toBeLessThan(600);
          expect(r.stdout + r.stderr).not.toContain(TOKEN);
          expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
        }
        expect(w.sandbox.requests()).toEqual([]);
      });
    }
  });
});
