// Actions variables end to end: the built CLI against the sandbox, on every release that has the routes.
import { afterEach, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import { bodyOf, calls, exportRoundTrip, requestsTo, writes, world, type World } from './helpers.js';

const seed: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'], variables: { REGISTRY: 'old.example.com', OLD_ORG_VAR: 'x' } }],
  repos: [{ name: 'acme/widgets', variables: { KEEP: 'same', CHANGE_ME: 'before', STRAY: 'y' } }, { name: 'acme/gadgets' }],
};

/** A config pruning variables: acme's REGISTRY, and acme/widgets' variables as given (YAML lines, indented to their place). */
const pruning = (widgets: string) => `version: 1
policy:
  prune: [variables]
orgs:
  acme:
    variables:
      REGISTRY: { value: registry.example.com }
repos:
  acme/widgets:
    variables:
${widgets}`;

const CONFIG = pruning(`      KEEP: { value: same }
      CHANGE_ME: { value: "after\\nwith two lines" }
      DEPLOY_ENV: { value: production }
`);

interface ApiVariable {
  name: string;
  data: string;
  description?: string;
}

let w: World;
afterEach(async () => w?.sandbox.close());

async function variables(w: World, base: string): Promise<Record<string, string>> {
  const list = (await w.api<ApiVariable[]>('GET', `${base}/actions/variables?limit=50`)).body;
  const out: Record<string, string> = {};
  // The list of some releases answers no values: each is read on its own.
  for (const v of list) out[v.name] = (await w.api<ApiVariable>('GET', `${base}/actions/variables/${v.name}`)).body.data;
  return out;
}

describe('Actions variables end to end', () => {
  it('plans creates, value changes and prunes per scope, applies them with one request each, and plans nothing after', async () => {
    w = await world(seed);
    const file = w.config(CONFIG);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toMatch(/# org:acme\n\s+~ organisation Actions variable "REGISTRY"\n\s+~ value: "old.example.com" → "registry.example.com"/);
    expect(plan.stdout).toContain('- organisation Actions variable "OLD_ORG_VAR"');
    expect(plan.stdout).toContain('+ Actions variable "DEPLOY_ENV"');
    expect(plan.stdout).toContain('~ Actions variable "CHANGE_ME"');
    expect(plan.stdout).toContain('- Actions variable "STRAY"');
    expect(plan.stdout).not.toContain('"KEEP"');
    // One list per scope (the default release lists values: no read per variable).
    expect(calls(w.sandbox).filter((c) => c.includes('actions/variables'))).toEqual(['GET orgs/acme/actions/variables', 'GET repos/acme/widgets/actions/variables']);

    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(writes(w.sandbox).sort()).toEqual(
      [
        'PUT orgs/acme/actions/variables/REGISTRY',
        'DELETE orgs/acme/actions/variables/OLD_ORG_VAR',
        'POST repos/acme/widgets/actions/variables/DEPLOY_ENV',
        'PUT repos/acme/widgets/actions/variables/CHANGE_ME',
        'DELETE repos/acme/widgets/actions/variables/STRAY',
      ].sort(),
    );
    // A PUT sets the description too (Gitea 1.24+ clears one it omits): the server's is sent with the value.
    expect(bodyOf(w.sandbox, 'PUT', 'repos/acme/widgets/actions/variables/CHANGE_ME')).toEqual({ value: 'after\nwith two lines', description: '' });
    expect(bodyOf(w.sandbox, 'POST', 'repos/acme/widgets/actions/variables/DEPLOY_ENV')).toEqual({ value: 'production' });
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    expect(await variables(w, 'orgs/acme')).toEqual({ REGISTRY: 'registry.example.com' });
    expect(await variables(w, 'repos/acme/widgets')).toEqual({ KEEP: 'same', CHANGE_ME: 'after\nwith two lines', DEPLOY_ENV: 'production' });

    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('No changes');
  });

  it('deletes nothing without variables in policy.prune, and names what it keeps', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    variables:\n      KEEP: { value: same }\n');
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).not.toContain('- Actions variable');
  });

  it('refuses a lower-case or reserved name at its file:line:col, before any request', async () => {
    w = await world(seed);
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    variables:\n      my_var: { value: x }\n      GITEA_URL: { value: y }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:5:7: .*my_var.*must be a valid variable name: upper-case letters/);
    expect(plan.stderr).toMatch(/forgeform\.yaml:6:7: .*GITEA_URL.*must be a valid variable name/);
    expect(w.sandbox.requests()).toEqual([]);
  });

  it('refuses names the release refuses (CI… on Gitea 1.22–1.24 and Forgejo 11) at their place, writing nothing', async () => {
    w = await world(seed, { flavour: 'gitea@1.24' });
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    variables:\n      CIRCLE_TOKEN: { value: x }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('forgeform.yaml:5:7');
    expect(plan.stderr).toContain('variable name "CIRCLE_TOKEN": Gitea 1.24.7 refuses variable names starting with CI');
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('exports every variable with its value and description, and the export plans no change', async () => {
    w = await world({ ...seed, repos: [{ name: 'acme/widgets', variables: { DEPLOY_ENV: { value: 'production\n', description: 'where main goes' } } }] });
    expect(await exportRoundTrip(w)).toMatch(/variables:\n\s+DEPLOY_ENV:\n\s+value: "production\\n"\n\s+description: where main goes/);
  });
});

/** The releases with the variable routes (Gitea 1.22+, Forgejo 8+), and those without. */
const WITH = FLAVOURS.filter((f) => (f.fork === 'gitea' ? f.release >= 22 : f.release >= 8));
const WITHOUT = FLAVOURS.filter((f) => !WITH.includes(f));

const FLAVOUR_CONFIG = pruning(`      CHANGE_ME: { value: after }
      DEPLOY_ENV: { value: "line one\\r\\nline two" }
`);

describe.each(WITH.map((f) => [f.name] as const))('Actions variables on %s', (flavour) => {
  it('plan → apply → plan is empty; a repository list without values costs one GET per variable; a saved plan applies', async () => {
    w = await world(seed, { flavour });
    const file = w.config(FLAVOUR_CONFIG);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    const perVariable = calls(w.sandbox).filter((c) => /^GET repos\/acme\/widgets\/actions\/variables\/[A-Z]/.test(c));
    const listsValues = (await w.api<ApiVariable[]>('GET', 'repos/acme/widgets/actions/variables')).body.every((v) => v.data !== '');
    // Every variable on the server (KEEP, CHANGE_ME, STRAY), declared or not: a prune's saved plan is checked against them.
    expect(perVariable.sort()).toEqual(listsValues ? [] : ['KEEP', 'CHANGE_ME', 'STRAY'].sort().map((n) => `GET repos/acme/widgets/actions/variables/${n}`));
    const saved = `${w.dir}/variables.plan`;
    expect((await w.cli(['plan', '-c', file, '--out', saved])).code).toBe(0);
    const apply = await w.cli(['apply', saved]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
    // Gitea 1.25+ answers 201 to a create, the others 204: both are success.
    expect(requestsTo(w.sandbox, 'POST', 'repos/acme/widgets/actions/variables/DEPLOY_ENV').map((r) => r.status)).toEqual([flavour.startsWith('gitea@') && !['gitea@1.22', 'gitea@1.23', 'gitea@1.24'].includes(flavour) ? 201 : 204]);
    // CRLF is stored as LF: compared that way, the next plan is empty.
    expect((await variables(w, 'repos/acme/widgets')).DEPLOY_ENV).toBe('line one\nline two');
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});

describe.each(WITHOUT.map((f) => [f.name] as const))('Actions variables on %s (no variable routes)', (flavour) => {
  it('refuses the variables section at its place and sends no request to the routes', async () => {
    w = await world({ ...seed, orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets' }] }, { flavour });
    const file = w.config(FLAVOUR_CONFIG);
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:6:5: variables need Gitea ≥ 1\.22 or Forgejo ≥ 8 \(server: (Gitea|Forgejo) [\d.+a-z-]+\)/);
    expect(plan.stderr).toMatch(/forgeform\.yaml:10:5: variables need/);
    expect(calls(w.sandbox).filter((c) => c.includes('actions/'))).toEqual([]);
    expect(writes(w.sandbox)).toEqual([]);
  });
});

describe('a hostile value on the server', () => {
  it('is shown escaped: its newline and escape sequence forge no plan line', async () => {
    w = await world({ ...seed, repos: [{ name: 'acme/widgets', variables: { KEEP: 'x\u001b[2K\n  + organisation Actions variable "FORGED"\n' } }] });
    const plan = await w.cli(['plan', '-c', w.config('version: 1\nrepos:\n  acme/widgets:\n    variables:\n      KEEP: { value: plain }\n'), '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).not.toContain('\u001b');
    expect(plan.stdout).not.toMatch(/^\s*\+ organisation Actions variable "FORGED"/m);
    expect(plan.stdout).toContain('~ Actions variable "KEEP"');
  });
});

describe('paged lists', () => {
  it('reads every page of a long list (60 variables and 60 secrets: two pages of 50 each) and plans nothing for them', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `VAR_${String(i).padStart(2, '0')}`);
    const entries = Object.fromEntries(names.map((n) => [n, `value of ${n}`]));
    w = await world({ ...seed, repos: [{ name: 'acme/widgets', variables: entries, secrets: Object.fromEntries(names.map((n) => [n, 'v'])) }] });
    const yaml = names.map((n) => `      ${n}: { value: "value of ${n}" }`).join('\n');
    const secrets = names.map((n) => `      ${n}: { value: "\${SHARED_SECRET}" }`).join('\n');
    const file = w.config(`version: 1\npolicy:\n  prune: [variables, secrets]\nrepos:\n  acme/widgets:\n    variables:\n${yaml}\n    secrets:\n${secrets}\n`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], { SHARED_SECRET: 'shared-secret-Wd30' });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const lists = w.sandbox.requests().filter((r) => /actions\/(variables|secrets)$/.test(r.path)).map((r) => `${r.path.replace(/^.*actions\//, '')} page ${r.query.page ?? '1'}`);
    expect(lists.sort()).toEqual(['secrets page 1', 'secrets page 2', 'variables page 1', 'variables page 2']);
  });
});
