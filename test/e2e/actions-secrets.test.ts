// Actions secrets end to end: the built CLI against the sandbox. The value is write-only: it comes from the
// environment, is sent on create and with --rotate-secrets, and never reaches stdout, stderr, a plan file,
// the request log served over HTTP, or an export.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import { loadSeedFile, type SeedFile } from '../../src/sandbox/index.js';
import { ADMIN_TOKEN, bodyOf, calls, requestsTo, writes, world, type World } from './helpers.js';

const seed: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'], secrets: { OLD_ORG_SECRET: 'seeded-old-Zt5' } }],
  repos: [{ name: 'acme/widgets', secrets: { EXISTING: 'seeded-existing-Kq2', STRAY: 'seeded-stray-Pw9' } }],
};

const ENV = { REG_TOKEN: 'reg-value-Vn83kq', DEPLOY_KEY: 'deploy-value-Hs27xa', NEW_KEY: 'new-value-Lm45zr' };
const VALUES = Object.values(ENV);

const CONFIG = `version: 1
policy:
  prune: [secrets]
orgs:
  acme:
    secrets:
      REGISTRY_TOKEN: { value: "\${REG_TOKEN}" }
repos:
  acme/widgets:
    secrets:
      EXISTING: { value: "\${DEPLOY_KEY}" }
      NEW_ONE: { value: "\${NEW_KEY}" }
`;

let w: World;
afterEach(async () => w?.sandbox.close());

function expectNoValue(what: string, text: string): void {
  for (const v of VALUES) expect(text, `${what} shows a secret value`).not.toContain(v);
}

async function secretNames(w: World, base: string): Promise<string[]> {
  return (await w.api<{ name: string }[]>('GET', `${base}/actions/secrets?limit=50`)).body.map((s) => s.name).sort();
}

/** The value the last PUT of a secret carried (the sandbox keeps bodies as received in process). */
const sent = (w: World, path: string) => bodyOf<{ data?: string }>(w.sandbox, 'PUT', path)?.data;

describe('Actions secrets end to end', () => {
  it('creates missing secrets with their values, leaves existing ones, prunes, and plans nothing after; no output shows a value', async () => {
    w = await world(seed);
    const file = w.config(CONFIG);
    const planFile = join(w.dir, 'secrets.plan');
    const outputs: string[] = [];
    for (const format of ['text', 'json', 'markdown']) {
      const plan = await w.cli(['plan', '-c', file, '--format', format, '--detailed-exitcode'], ENV);
      expect(plan.code, plan.stdout + plan.stderr).toBe(2);
      outputs.push(plan.stdout, plan.stderr);
    }
    const text = outputs[0]!;
    expect(text).toMatch(/\+ organisation Actions secret "REGISTRY_TOKEN"\n\s+\+ value = \(sensitive, from \$\{REG_TOKEN\}\)/);
    expect(text).toContain('- organisation Actions secret "OLD_ORG_SECRET"');
    expect(text).toMatch(/\+ Actions secret "NEW_ONE"\n\s+\+ value = \(sensitive, from \$\{NEW_KEY\}\)/);
    expect(text).toContain('- Actions secret "STRAY"');
    // An existing secret cannot be compared: no change, and one warning for the whole plan.
    expect(text).not.toContain('"EXISTING"');
    expect(text).toContain('1 declared secret of existing objects not compared (the server never returns them): --rotate-secrets sends it');
    // One list per scope.
    expect(calls(w.sandbox).filter((c) => c.includes('actions/secrets'))).toEqual(Array(3).fill(['GET orgs/acme/actions/secrets', 'GET repos/acme/widgets/actions/secrets']).flat());

    const saved = await w.cli(['plan', '-c', file, '--out', planFile], ENV);
    expect(saved.code, saved.stderr).toBe(0);
    const planText = readFileSync(planFile, 'utf8');
    // The plan file keeps the reference, apply reads the environment again.
    expect(planText).toContain('${NEW_KEY}');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', planFile, '--format', 'json'], ENV);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(writes(w.sandbox).sort()).toEqual(
      ['PUT orgs/acme/actions/secrets/REGISTRY_TOKEN', 'DELETE orgs/acme/actions/secrets/OLD_ORG_SECRET', 'PUT repos/acme/widgets/actions/secrets/NEW_ONE', 'DELETE repos/acme/widgets/actions/secrets/STRAY'].sort(),
    );
    // The server got the values themselves, as `data` (no description where the config writes none).
    expect(bodyOf(w.sandbox, 'PUT', 'repos/acme/widgets/actions/secrets/NEW_ONE')).toEqual({ data: ENV.NEW_KEY });
    expect(sent(w, 'orgs/acme/actions/secrets/REGISTRY_TOKEN')).toBe(ENV.REG_TOKEN);
    expect(requestsTo(w.sandbox, 'PUT', 'repos/acme/widgets/actions/secrets/NEW_ONE').map((r) => r.status)).toEqual([201]);
    expect(await secretNames(w, 'orgs/acme')).toEqual(['REGISTRY_TOKEN']);
    expect(await secretNames(w, 'repos/acme/widgets')).toEqual(['EXISTING', 'NEW_ONE']);

    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('3 declared secrets of existing objects not compared (the server never returns them): --rotate-secrets sends them');

    const log = await fetch(`${w.sandbox.url}/_sandbox/requests`, { headers: { authorization: `token ${ADMIN_TOKEN}` } });
    const served = await log.text();
    expect(served).toContain('"data":"(sensitive)"');
    for (const [what, t] of [['plan outputs', outputs.join('\n')], ['plan --out', saved.stdout + saved.stderr], ['the plan file', planText], ['apply', apply.stdout + apply.stderr], ['the second plan', again.stdout + again.stderr], ['the request log over HTTP', served]] as const) expectNoValue(what, t);
  });

  it('--rotate-secrets sends the value of every declared secret again (one PUT each, 204), and nothing else', async () => {
    w = await world(seed);
    const file = w.config(CONFIG.replace('  prune: [secrets]', '  prune: []'));
    expect((await w.cli(['apply', '-c', file, '--yes'], ENV)).code).toBe(0);
    const plain = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);

    const rotated = { ...ENV, DEPLOY_KEY: 'deploy-rotated-Qa61' };
    const plan = await w.cli(['plan', '-c', file, '--rotate-secrets', '--detailed-exitcode'], rotated);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/~ Actions secret "EXISTING"\n\s+\+ value = \(sensitive, from \$\{DEPLOY_KEY\}\)/);
    expect(plan.stdout).toContain('Plan: 0 to create, 3 to update, 0 to delete');
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes', '--rotate-secrets', '--debug'], rotated);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(writes(w.sandbox).sort()).toEqual(['PUT orgs/acme/actions/secrets/REGISTRY_TOKEN', 'PUT repos/acme/widgets/actions/secrets/EXISTING', 'PUT repos/acme/widgets/actions/secrets/NEW_ONE'].sort());
    expect(sent(w, 'repos/acme/widgets/actions/secrets/EXISTING')).toBe('deploy-rotated-Qa61');
    expect(requestsTo(w.sandbox, 'PUT', 'repos/acme/widgets/actions/secrets/EXISTING').map((r) => r.status)).toEqual([204]);
    for (const t of [plan.stdout, plan.stderr, apply.stdout, apply.stderr]) {
      expectNoValue('rotation', t);
      expect(t).not.toContain('deploy-rotated-Qa61');
    }
  });

  it('refuses a value written in the config, and a lower-case name, at file:line:col, without showing the value or sending anything', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    secrets:\n      LITERAL: { value: "literal-Sx0193" }\n      lower_name: { value: "${DEPLOY_KEY}" }\n');
    const plan = await w.cli(['plan', '-c', file], ENV);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:6:7: .*lower_name.*must be a valid secret name: upper-case letters/);
    w.sandbox.clearRequests();
    const valid = w.config('version: 1\nrepos:\n  acme/widgets:\n    secrets:\n      LITERAL: { value: "literal-Sx0193" }\n');
    const literal = await w.cli(['plan', '-c', valid], ENV);
    expect(literal.code).toBe(1);
    expect(literal.stderr).toContain('forgeform.yaml:5:18: value is a secret and must come from an environment variable (value: "${NAME}")');
    expect(literal.stdout + literal.stderr).not.toContain('literal-Sx0193');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('export writes each secret as a ${NAME} reference; with the variables set, the export plans no change', async () => {
    w = await world({ ...seed, repos: [{ name: 'acme/widgets', secrets: { EXISTING: 'seeded-existing-Kq2', RUNNER_TOKEN: 'seeded-runner-Bb7' } }] });
    const out = join(w.dir, 'exported.yaml');
    const exported = await w.cli(['export', '-o', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toMatch(/secrets:\n\s+OLD_ORG_SECRET:\n\s+value: \$\{OLD_ORG_SECRET\}/);
    // A name forgeform may not read from the environment gets a prefix.
    expect(text).toMatch(/RUNNER_TOKEN:\n\s+value: \$\{SECRET_RUNNER_TOKEN\}/);
    for (const v of ['seeded-old-Zt5', 'seeded-existing-Kq2', 'seeded-runner-Bb7']) expect(text + exported.stdout + exported.stderr).not.toContain(v);
    w.sandbox.clearRequests();
    const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode'], { OLD_ORG_SECRET: 'a-value-1', EXISTING: 'a-value-2', SECRET_RUNNER_TOKEN: 'a-value-3' });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(writes(w.sandbox)).toEqual([]);
  });
});

/** Releases that list a repository's secrets (Gitea 1.22+, Forgejo 8+); every release lists an organisation's. */
const REPO_LIST = FLAVOURS.filter((f) => (f.fork === 'gitea' ? f.release >= 22 : f.release >= 8));
const NO_REPO_LIST = FLAVOURS.filter((f) => !REPO_LIST.includes(f));

describe.each(REPO_LIST.map((f) => [f.name] as const))('Actions secrets on %s', (flavour) => {
  it('plan → apply → plan is empty; --rotate-secrets resends; prune deletes', async () => {
    w = await world(seed, { flavour });
    const file = w.config(CONFIG);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    const apply = await w.cli(['apply', '-c', file, '--yes'], ENV);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    expect(await secretNames(w, 'repos/acme/widgets')).toEqual(['EXISTING', 'NEW_ONE']);
    // Gitea 1.22 (like 1.21 and Forgejo 7) lists an organisation's secrets by owner alone: a prune keeps them (see below).
    expect(await secretNames(w, 'orgs/acme')).toEqual(flavour === 'gitea@1.22' ? ['OLD_ORG_SECRET', 'REGISTRY_TOKEN'] : ['REGISTRY_TOKEN']);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    w.sandbox.clearRequests();
    const rotate = await w.cli(['apply', '-c', file, '--yes', '--rotate-secrets'], ENV);
    expect(rotate.code, rotate.stdout + rotate.stderr).toBe(0);
    expect(writes(w.sandbox)).toHaveLength(3);
    for (const t of [plan.stdout, plan.stderr, apply.stdout, apply.stderr, rotate.stdout, rotate.stderr]) expectNoValue(flavour, t);
  });
});

describe.each(NO_REPO_LIST.map((f) => [f.name] as const))('Actions secrets on %s (no repository secret list)', (flavour) => {
  it("refuses a repository's secrets at their place and writes nothing; an organisation's are managed", async () => {
    w = await world(seed, { flavour });
    const file = w.config(CONFIG);
    const plan = await w.cli(['plan', '-c', file], ENV);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:10:5: secrets need Gitea ≥ 1\.22 or Forgejo ≥ 8 \(server: (Gitea|Forgejo) [^)]+\)/);
    expect(writes(w.sandbox)).toEqual([]);
    const orgOnly = w.config('version: 1\npolicy:\n  prune: [secrets]\norgs:\n  acme:\n    secrets:\n      REGISTRY_TOKEN: { value: "${REG_TOKEN}" }\n', 'org.yaml');
    const apply = await w.cli(['apply', '-c', orgOnly, '--yes'], ENV);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(await secretNames(w, 'orgs/acme')).toEqual(['OLD_ORG_SECRET', 'REGISTRY_TOKEN']);
    expect((await w.cli(['plan', '-c', orgOnly, '--detailed-exitcode'], ENV)).code).toBe(0);
    // A repository's secret put through the API is listed (and would be deleted) through its organisation here:
    // a prune keeps every undeclared organisation secret, with a warning.
    expect((await w.api('PUT', 'repos/acme/widgets/actions/secrets/REPO_SIDE', { data: 'repo-side-value' })).status).toBe(201);
    w.sandbox.clearRequests();
    const prune = await w.cli(['plan', '-c', orgOnly, '--detailed-exitcode'], ENV);
    expect(prune.code, prune.stdout + prune.stderr).toBe(0);
    expect(prune.stdout).toMatch(/organisation Actions secret "REPO_SIDE" in acme is not deleted: .* lists and deletes an organisation's secrets by owner alone/);
    expect(prune.stdout).toMatch(/organisation Actions secret "OLD_ORG_SECRET" in acme is not deleted/);
  });
});

describe('the Actions example', () => {
  it('plans, applies, and then plans no changes (examples/actions); --rotate-secrets sends the three secrets again', async () => {
    const dir = fileURLToPath(new URL('../../examples/actions/', import.meta.url));
    w = await world(loadSeedFile(`${dir}seed.yaml`));
    const env = { REGISTRY_TOKEN: 'registry-token-Pp31', WIDGETS_DEPLOY_KEY: 'deploy-key-Rr72', WIDGETS_SIGNING_KEY: 'signing-key-Tt55' };
    const file = `${dir}forgeform.yaml`;
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain('Plan: 3 to create, 1 to update, 2 to delete, 0 to rename.');
    const apply = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    w.sandbox.clearRequests();
    const rotate = await w.cli(['apply', '-c', file, '--yes', '--rotate-secrets'], env);
    expect(rotate.code, rotate.stdout + rotate.stderr).toBe(0);
    expect(writes(w.sandbox).sort()).toEqual(['PUT orgs/acme/actions/secrets/REGISTRY_TOKEN', 'PUT repos/acme/widgets/actions/secrets/DEPLOY_KEY', 'PUT repos/acme/widgets/actions/secrets/SIGNING_KEY']);
    expect(plan.stdout + plan.stderr + apply.stdout + apply.stderr + again.stdout + rotate.stdout + rotate.stderr).not.toMatch(/registry-token-Pp31|deploy-key-Rr72|signing-key-Tt55/);
  });
});

describe('descriptions of secrets (Gitea 1.24+)', () => {
  it('a changed description is one PUT with the value and the description; Forgejo refuses the field at its place', async () => {
    w = await world({ ...seed, repos: [{ name: 'acme/widgets', secrets: { EXISTING: { value: 'seeded-existing-Kq2', description: 'old words' } } }] });
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    secrets:\n      EXISTING: { value: "${DEPLOY_KEY}", description: new words }\n');
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/~ Actions secret "EXISTING"\n(\s+.*\n)*?\s+~ description: "old words" → "new words"/);
    expect(plan.stdout).toMatch(/\+ value += \(sensitive, from \$\{DEPLOY_KEY\}\)/);
    w.sandbox.clearRequests();
    expect((await w.cli(['apply', '-c', file, '--yes'], ENV)).code).toBe(0);
    expect(bodyOf(w.sandbox, 'PUT', 'repos/acme/widgets/actions/secrets/EXISTING')).toEqual({ data: ENV.DEPLOY_KEY, description: 'new words' });
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'], ENV)).code).toBe(0);
    expectNoValue('description change', plan.stdout + plan.stderr);

    await w.sandbox.close();
    w = await world(seed, { flavour: 'forgejo@15' });
    const refused = await w.cli(['plan', '-c', w.config('version: 1\nrepos:\n  acme/widgets:\n    secrets:\n      EXISTING:\n        value: "${DEPLOY_KEY}"\n        description: new words\n')], ENV);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('forgeform.yaml:7:9: description needs Gitea ≥ 1.24 (server: Forgejo 15.0.3');
    expect(writes(w.sandbox)).toEqual([]);
  });
});
