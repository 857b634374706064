import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, world, writes, type World } from './helpers.js';

// Issue 17 §3 and §4: a config (or a saved plan) never reads forgeform's credentials or the CI
// runtime's variables, and masking follows the field's type, not the value.
const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', branch_protections: [{ rule_name: 'main' }], labels: [{ name: 'bug', color: 'ee0701' }] }],
};

let w: World;
afterEach(async () => w?.sandbox.close());

describe('credentials are never interpolated', () => {
  it('refuses ${FORGEFORM_TOKEN} (and the CI runtime variables) at file:line:col, in validate and plan, sending nothing', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
repos:
  acme/widgets:
    labels:
      bug:
        color: ee0701
        description: "token: \${FORGEFORM_TOKEN}"
      docs: { color: "0000ff", description: "\${env:GITHUB_TOKEN}" }
`);
    for (const command of ['validate', 'plan']) {
      w.sandbox.clearRequests();
      const r = await w.cli([command, '-c', file], { GITHUB_TOKEN: 'gh-token-value-1234' });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `${file}:7:22: \${FORGEFORM_TOKEN} cannot be read: FORGEFORM_* variables hold forgeform's own credentials and settings (FORGEFORM_TOKEN, FORGEFORM_PASSWORD, FORGEFORM_USERNAME), and a value that read one would copy a credential to where others can read it; give the value a variable of its own`,
      );
      expect(r.stderr).toContain(`${file}:8:45: \${GITHUB_TOKEN} cannot be read: GITHUB_* variables hold the CI runtime's token and settings (GITHUB_TOKEN)`);
      expect(`${r.stdout}${r.stderr}`).not.toContain(ADMIN_TOKEN);
      expect(`${r.stdout}${r.stderr}`).not.toContain('gh-token-value-1234');
      expect(w.sandbox.requests()).toEqual([]);
    }
  });

  it('refuses a saved plan that reads a credential, re-labels a secret as not secret, or puts a reference in a field that is not secret', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
users:
  carol: { email: carol@example.com, password: "\${CAROL_PW}", must_change_password: false }
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, description: plain }
`);
    const env = { CAROL_PW: 'carol-pw-Qx81' };
    const planFile = join(w.dir, 'plan.json');
    expect((await w.cli(['plan', '-c', file, '--out', planFile], env)).code).toBe(0);
    const original = readFileSync(planFile, 'utf8');
    // A change a line, as compact JSON.
    expect(original).toContain('"$env":"${CAROL_PW}"');

    const tamper = (edit: (text: string) => string) => {
      const p = join(w.dir, `tampered-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(p, edit(original));
      return p;
    };
    const cases: [string, string, RegExp][] = [
      // The token read by the saved plan, in the secret field and in its request body.
      [tamper((t) => t.replaceAll('"$env":"${CAROL_PW}"', '"$env": "${FORGEFORM_TOKEN}"')), 'token', /fields\.\d+\.after: \$\{FORGEFORM_TOKEN\} cannot be read: FORGEFORM_\* variables hold forgeform's own credentials/],
      // A secret re-labelled as plain text.
      [tamper((t) => t.replaceAll('"$env":"${CAROL_PW}"', '"$env": "${CAROL_PW}", "secret": false')), 'secret: false', /a reference \(\{"\$env": …\}\) has no other key \("secret"\): whether a value is secret is decided by its field's type, not by the plan file/],
      // A secret moved into a field anyone can read.
      [tamper((t) => t.replaceAll('"plain"', '{ "$env": "${CAROL_PW}" }')), 'description', /fields\.\d+\.after: a reference \(\{"\$env": …\}\) may stand only for the value of a secret field or in a request body/],
    ];
    for (const [p, what, message] of cases) {
      w.sandbox.clearRequests();
      const r = await w.cli(['apply', p], { ...env, FORGEFORM_TOKEN: ADMIN_TOKEN });
      expect(r.code, what).toBe(1);
      expect(r.stderr, what).toContain('is not a plan this forgeform can apply; nothing was changed');
      expect(r.stderr, what).toMatch(message);
      expect(`${r.stdout}${r.stderr}`, what).not.toContain(ADMIN_TOKEN);
      expect(`${r.stdout}${r.stderr}`, what).not.toContain(env.CAROL_PW);
      expect(writes(w.sandbox), what).toEqual([]);
    }
    // The untouched plan applies.
    expect((await w.cli(['apply', planFile], env)).code).toBe(0);
  });
});

describe('masking every value read from the environment (issue 28)', () => {
  it('a value read from the environment into a field that is not secret is masked in every output; the plan file keeps it (apply sends it)', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
users:
  carol: { email: carol@example.com, password: "\${CAROL_PW}", must_change_password: false }
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, description: "\${DESC}" }
    branch_protections:
      main: { required_approvals: 2 }
`);
    const env = { DESC: 'Tracked-by-platform-Rn42', CAROL_PW: 'carol-pw-Qx81' };
    for (const format of ['text', 'markdown', 'json']) {
      const plan = await w.cli(['plan', '-c', file, '--format', format], env);
      expect(plan.code, plan.stderr).toBe(0);
      const all = `${plan.stdout}${plan.stderr}`;
      expect(all).not.toContain(env.CAROL_PW);
      expect(all).not.toContain(env.DESC);
      if (format === 'json') {
        expect(plan.stdout).toContain('"after": "(sensitive)"');
        continue;
      }
      expect(plan.stdout).toContain('~ branch protection "main"');
      expect(plan.stdout).toMatch(/~\s+description\s*: "" → "\(sensitive\)"/);
      expect(plan.stdout).toMatch(/\+\s+password\s+= \(sensitive, from \$\{CAROL_PW\}\)/);
    }
    const planFile = join(w.dir, 'plan.json');
    expect((await w.cli(['plan', '-c', file, '--out', planFile], env)).code).toBe(0);
    const saved = readFileSync(planFile, 'utf8');
    expect(saved).not.toContain(env.CAROL_PW);
    // The plan file holds a change a line, as compact JSON; a value that is not secret is in it as it is (apply sends it).
    expect(saved).toContain(`"after":"${env.DESC}"`);
  });

  it('apply PLANFILE and show PLANFILE mask it as plan did (the file keeps it, and names the variables it read); apply without the variable is refused', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
users:
  carol: { email: carol@example.com, password: "\${CAROL_PW}", must_change_password: false }
repos:
  acme/widgets:
    labels:
      bug: { color: ee0701, description: "Owner: \${DESC}" }
      docs: { color: "0000ff", description: "\${DESC}" }
`);
    const env = { DESC: 'Tracked-by-platform-Rn42', CAROL_PW: 'carol-pw-Qx81' };
    const planFile = join(w.dir, 'plan.json');
    expect((await w.cli(['plan', '-c', file, '--out', planFile], env)).code).toBe(0);
    const saved = JSON.parse(readFileSync(planFile, 'utf8')) as { reads?: string[] };
    // Names, never values: the variables the config read.
    expect(saved.reads).toEqual(['CAROL_PW', 'DESC']);

    for (const format of ['text', 'markdown', 'json']) {
      const show = await w.cli(['show', planFile, '--format', format], env);
      expect(show.code, show.stderr).toBe(0);
      expect(`${show.stdout}${show.stderr}`, format).not.toContain(env.DESC);
    }
    const shown = await w.cli(['show', planFile], env);
    expect(shown.stdout).toContain('"Owner: (sensitive)"');

    // Without the variable (nor the secret's), nothing is applied: its value could not be masked.
    const refused = await w.cli(['apply', planFile], { CAROL_PW: env.CAROL_PW });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('the plan needs these environment variables, as when it was made: DESC');
    expect(writes(w.sandbox)).toEqual([]);

    // Before: "+ description = "Tracked-by-platform-Rn42"" in the plan apply prints, and in its result lines.
    const apply = await w.cli(['apply', planFile], env);
    expect(apply.code, apply.stderr).toBe(0);
    expect(`${apply.stdout}${apply.stderr}`).not.toContain(env.DESC);
    expect(`${apply.stdout}${apply.stderr}`).not.toContain(env.CAROL_PW);
    expect(apply.stdout).toMatch(/\+\s+description = "\(sensitive\)"/);
    expect(apply.stdout).toContain('Apply complete! 2 created, 1 updated');
    // What was sent is the value itself.
    const labels = (await w.api<{ name: string; description: string }[]>('GET', 'repos/acme/widgets/labels')).body;
    expect(labels.find((l) => l.name === 'docs')?.description).toBe(env.DESC);
  });

  it('a field that is not secret may not read a variable a secret field reads (it would print the secret): refused at file:line:col', async () => {
    w = await world(seed);
    const file = w.config(`version: 1
users:
  carol: { email: carol@example.com, password: "\${CAROL_PW}", full_name: "\${CAROL_PW}" }
`);
    const plan = await w.cli(['plan', '-c', file], { CAROL_PW: 'carol-pw-Qx81' });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${file}:3:74: \${CAROL_PW} is read by a secret field (at ${file}:3:48), so this value, which is not secret and is shown and stored as it is, must not read it: give it a variable of its own`);
    expect(`${plan.stdout}${plan.stderr}`).not.toContain('carol-pw-Qx81');
    expect(writes(w.sandbox)).toEqual([]);
  });
});
