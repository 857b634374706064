// A secret's source is part of what is reviewed (issue 28): every plan output shows which variable each secret value
// is read from, a saved plan holds only those references, and a plan file edited to read another variable, or to
// hold a literal, is either refused or prints differently from the plan that was reviewed. Built CLI, sandbox.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { world, writes, type World } from './helpers.js';

const seed: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets' }],
};

const ENV = {
  CAROL_PW: 'carol-pw-Tq83',
  HOOK_SECRET: 'hook-secret-Jm52',
  HOOK_AUTH: 'hook-auth-Vb61',
  WIDGETS_DEPLOY_KEY: 'deploy-key-Rz47',
  MIRROR_TOKEN: 'mirror-token-Kc29',
  UPSTREAM_TOKEN: 'upstream-token-Wp16',
  PROD_DB_PASSWORD: 'prod-db-password-Xy90',
};
const LITERAL = 'planted-literal-Gh38';

// Every kind of secret field: a user's password, an admin hook's secret and authorization header, an Actions
// secret's value, a push mirror's password, a pull mirror's password.
const CONFIG = `version: 1
users:
  carol:
    email: carol@example.com
    password: \${CAROL_PW}
    must_change_password: false
hooks:
  - url: https://ci.example.com/hook
    secret: \${HOOK_SECRET}
    authorization_header: "Bearer \${HOOK_AUTH}"
repos:
  acme/widgets:
    secrets:
      DEPLOY: { value: "\${WIDGETS_DEPLOY_KEY}" }
    push_mirrors:
      - remote_address: https://github.com/acme/widgets.git
        remote_username: mirror-bot
        remote_password: \${MIRROR_TOKEN}
        interval: 8h
  acme/tools:
    mirror:
      from: https://github.com/example/tools.git
      username: mirror-bot
      password: \${UPSTREAM_TOKEN}
      interval: 2h
`;

/** Each secret field: its change's kind, its field, and the reference the reviewed plan shows. */
const FIELDS = [
  { kind: 'user', field: 'password', shown: '(sensitive, from ${CAROL_PW})', template: '${CAROL_PW}' },
  { kind: 'hook', field: 'secret', shown: '(sensitive, from ${HOOK_SECRET})', template: '${HOOK_SECRET}' },
  { kind: 'hook', field: 'authorization_header', shown: '(sensitive, from "Bearer ${HOOK_AUTH}")', template: 'Bearer ${HOOK_AUTH}' },
  { kind: 'repo_actions_secret', field: 'value', shown: '(sensitive, from ${WIDGETS_DEPLOY_KEY})', template: '${WIDGETS_DEPLOY_KEY}' },
  { kind: 'push_mirror', field: 'remote_password', shown: '(sensitive, from ${MIRROR_TOKEN})', template: '${MIRROR_TOKEN}' },
  { kind: 'repo', field: 'password', shown: '(sensitive, from ${UPSTREAM_TOKEN})', template: '${UPSTREAM_TOKEN}' },
] as const;

interface SavedChange {
  kind: string;
  fields: { path: string; after?: unknown }[];
  ops: unknown[];
}

let w: World;
afterEach(async () => w?.sandbox.close());

async function savedPlan(): Promise<{ file: string; reviewed: string }> {
  const file = `${w.dir}/plan.json`;
  const plan = await w.cli(['plan', '-c', w.config(CONFIG), '--out', file], ENV);
  expect(plan.code, plan.stderr).toBe(0);
  return { file, reviewed: plan.stdout };
}

/** The plan file with every place the field's reference stands (its value, the requests' bodies) replaced. */
function edited(file: string, kind: string, template: string, replacement: unknown, where: 'all' | 'ops' = 'all'): string {
  const plan = JSON.parse(readFileSync(file, 'utf8')) as { changes: SavedChange[] };
  const swap = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(swap);
    if (v && typeof v === 'object') {
      if ((v as { $env?: unknown }).$env === template) return replacement;
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]));
    }
    return v;
  };
  plan.changes = plan.changes.map((c) => (c.kind !== kind ? c : where === 'ops' ? { ...c, ops: swap(c.ops) as unknown[] } : (swap(c) as SavedChange)));
  const out = `${w.dir}/edited-${kind}.json`;
  writeFileSync(out, JSON.stringify(plan, null, 2));
  return out;
}

function expectNoValue(text: string): void {
  for (const v of [...Object.values(ENV), LITERAL]) expect(text).not.toContain(v);
}

describe("a secret's source is part of what is reviewed", () => {
  it('every plan format shows, for each secret value, the variable it is read from; the plan file holds only the references', async () => {
    w = await world(seed);
    const file = w.config(CONFIG);
    const text = await w.cli(['plan', '-c', file, '--out', `${w.dir}/plan.json`], ENV);
    const markdown = await w.cli(['plan', '-c', file, '--format', 'markdown'], ENV);
    const json = await w.cli(['plan', '-c', file, '--format', 'json'], ENV);
    for (const r of [text, markdown, json]) {
      expect(r.code, r.stderr).toBe(0);
      expectNoValue(r.stdout + r.stderr);
    }
    expect(text.stdout).toContain('+ value = (sensitive, from ${WIDGETS_DEPLOY_KEY})');
    expect(text.stdout).toContain('+ authorization_header = (sensitive, from "Bearer ${HOOK_AUTH}")');
    for (const f of FIELDS) {
      expect(text.stdout).toContain(f.shown);
      expect(markdown.stdout).toContain(f.shown);
    }
    const changes = (JSON.parse(json.stdout) as { changes: SavedChange[] }).changes;
    for (const f of FIELDS) expect(changes.find((c) => c.kind === f.kind)!.fields.find((x) => x.path === f.field)!.after).toBe(f.shown);
    const saved = readFileSync(`${w.dir}/plan.json`, 'utf8');
    expectNoValue(saved);
    for (const f of FIELDS) expect(saved).toContain(JSON.stringify({ $env: f.template }));
  });

  it.each(FIELDS)('a plan file whose $kind $field holds a literal, or a reference that reads no variable, is refused and changes nothing', async (f) => {
    w = await world(seed);
    const { file } = await savedPlan();
    for (const replacement of [LITERAL, { $env: LITERAL }]) {
      w.sandbox.clearRequests();
      const apply = await w.cli(['apply', edited(file, f.kind, f.template, replacement), '--yes'], ENV);
      expect(apply.code, apply.stdout + apply.stderr).toBe(1);
      expect(apply.stderr).toContain(`field "${f.field}" is a secret`);
      expect(apply.stderr).toContain('(the file was edited)');
      expectNoValue(apply.stdout + apply.stderr);
      expect(writes(w.sandbox)).toEqual([]);
    }
  });

  it.each(FIELDS)('a plan file whose $kind $field requests read another variable than the change shows is refused', async (f) => {
    w = await world(seed);
    const { file } = await savedPlan();
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', edited(file, f.kind, f.template, { $env: '${PROD_DB_PASSWORD}' }, 'ops'), '--yes'], ENV);
    expect(apply.code, apply.stdout + apply.stderr).toBe(1);
    expect(apply.stderr).toMatch(/requests in the plan file differ from what the change shows/);
    expectNoValue(apply.stdout + apply.stderr);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it.each(FIELDS)('a plan file whose $kind $field was edited to read ${PROD_DB_PASSWORD} or ${HOME} prints differently from the reviewed plan', async (f) => {
    w = await world(seed);
    const { file, reviewed } = await savedPlan();
    const home = await w.cli(['apply', edited(file, f.kind, f.template, { $env: '${HOME}' }), '--format', 'json', '--yes'], { ...ENV, HOME: 'home-dir-Lq55' });
    const prod = await w.cli(['apply', edited(file, f.kind, f.template, { $env: '${PROD_DB_PASSWORD}' }), '--yes'], ENV);
    expect(prod.stdout).toMatch(new RegExp(`\\+ ${f.field} += \\(sensitive, from \\$\\{PROD_DB_PASSWORD\\}\\)`));
    expect(prod.stdout).not.toContain(f.shown);
    expect(prod.stdout.split('\n\nPlan:')[0]).not.toEqual(reviewed.split('\n\nPlan:')[0]);
    expect(home.stdout).toContain('"(sensitive, from ${HOME})"');
    expectNoValue(prod.stdout + prod.stderr + home.stdout + home.stderr);
    expect(home.stdout + home.stderr).not.toContain('home-dir-Lq55');
  });
});
