/**
 * The journey across every kind, on every release the sandbox plays (issue 21 "must show"): a forge
 * with objects of every kind is exported, and the exported file plans no change; the committed admin
 * example plans, applies and then plans no change. The kinds come from the registry, so a kind added
 * later without export support (or without objects in EVERY_KIND) fails here.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isNode, LineCounter, parseDocument, visit } from 'yaml';
import { kinds } from '../../src/kinds/index.js';
import { exportable, serverHas } from '../../src/model/index.js';
import { FLAVOURS, type Flavour } from '../../src/sandbox/flavours/flavour.js';
import { loadSeedFile } from '../../src/sandbox/index.js';
import { EVERY_KIND } from '../support/seeds.js';
import { calls, mapExportedSecrets, world, type World } from './helpers.js';

let w: World | undefined;
afterEach(async () => {
  await w?.sandbox.close();
  w = undefined;
});

/** The journeys run the CLI as a user does: a process per command, the built bin as it ships. */
const AS_RUN = { process: true };

/** The kinds export leaves out by design: issues are content, not configuration. */
const NOT_EXPORTED = ['issue'];

const served = (flavour: Flavour) => (kind: (typeof kinds)[number]) => serverHas({ flavour: flavour.fork, version: flavour.version.replace(/\+.*/, '') }, kind.availability);

describe.each(FLAVOURS.map((f) => [f.name, f] as const))('the journey on %s', (name, flavour) => {
  it('exports a forge with objects of every kind the release serves, and the exported file plans no change', async () => {
    w = await world(EVERY_KIND, { flavour: name }, AS_RUN);
    const out = `${w.dir}/exported.yaml`;
    const exported = await w.cli(['export', '-o', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(kinds.filter((k) => !exportable(k)).map((k) => k.name)).toEqual(NOT_EXPORTED);
    for (const kind of kinds.filter(exportable)) {
      // What the release lacks is left out, and named (docs/servers.md), so that the plan below is empty.
      if (served(flavour)(kind)) expect(text, kind.name).toMatch(new RegExp(`^\\s*${kind.configKey}:`, 'm'));
      else expect(exported.stdout + exported.stderr, kind.name).toContain(`Warning: ${kind.configKey}: not exported, ${kind.configKey} need`);
    }
    // The repository kind's objects are the repositories: the pull mirror's entry says what it mirrors and how often.
    expect(text).toContain('  acme/upstream:\n    mirror:\n      from: https://code.example.com/upstream/tools.git\n      interval: 12h0m0s\n');
    expect(text.match(/^ {4}mirror:/gm)).toHaveLength(1);
    writeFileSync(out, mapExportedSecrets(text));
    w.sandbox.clearRequests();
    const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode'], { ORG_TOKEN: 'org-token-value', DEPLOY_KEY: 'deploy-key-value' });
    expect(plan.stderr).not.toMatch(/error/i);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET '))).toEqual([]);
  });
});

const ADMIN = fileURLToPath(new URL('../../examples/admin/', import.meta.url));
const ADMIN_FILE = `${ADMIN}forgeform.yaml`;
const ADMIN_TEXT = readFileSync(ADMIN_FILE, 'utf8');
const ADMIN_ENV = { CI_BOT_PASSWORD: 'a-long-initial-password', CI_HOOK_SECRET: 'hook-signing-secret', MIRROR_BOT_TOKEN: 'a-mirror-token-Hq40', REGISTRY_TOKEN: 'registry-token-Jw52', WIDGETS_DEPLOY_KEY: 'deploy-key-Ux17' };
const SECRETS = /a-long-initial-password|hook-signing-secret|a-mirror-token-Hq40|registry-token-Jw52|deploy-key-Ux17/;

/** The places (line:col) a refused plan names in the admin example. */
function refusedPlaces(stderr: string): string[] {
  return [...stderr.matchAll(/forgeform\.yaml:(\d+:\d+): /g)].map((m) => m[1]!);
}

/** The file without the entries (map keys with their values, list items) at those places: what a user of that release deletes. */
function without(text: string, places: string[]): string {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const at = (node: unknown) => {
    const start = isNode(node) ? node.range?.[0] : undefined;
    if (start === undefined) return false;
    const { line, col } = lines.linePos(start);
    return places.includes(`${line}:${col}`);
  };
  visit(doc, {
    Pair: (_, pair) => (at(pair.key) ? visit.REMOVE : undefined),
    Node: (key, node) => (typeof key === 'number' && at(node) ? visit.REMOVE : undefined),
  });
  return doc.toString();
}

async function planApplyPlan(w: World, file: string): Promise<void> {
  const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ADMIN_ENV);
  expect(plan.code, plan.stderr).toBe(2);
  const apply = await w.cli(['apply', '-c', file, '--yes'], ADMIN_ENV);
  expect(apply.code, apply.stderr).toBe(0);
  expect(w.sandbox.requests().flatMap((r) => r.unknownFields)).toEqual([]);
  const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], ADMIN_ENV);
  expect(again.stdout).toContain('No changes.');
  expect(again.code, again.stdout).toBe(0);
  expect(plan.stdout + plan.stderr + apply.stdout + apply.stderr + again.stdout + again.stderr).not.toMatch(SECRETS);
}

describe.each(FLAVOURS.map((f) => [f.name, f] as const))('the admin example on %s', (name, flavour) => {
  it('plans, applies and plans no change, or refuses, naming each place, what the release lacks (examples/admin as committed)', async () => {
    w = await world(loadSeedFile(`${ADMIN}seed.yaml`), { flavour: name }, AS_RUN);
    const lacking = kinds.filter((k) => !served(flavour)(k) && new RegExp(`^\\s*${k.configKey}:`, 'm').test(ADMIN_TEXT));
    const plan = await w.cli(['plan', '-c', ADMIN_FILE, '--detailed-exitcode'], ADMIN_ENV);
    if (plan.code !== 1) {
      // Every kind and field of the example is served: the whole journey, as committed.
      expect(lacking).toEqual([]);
      w.sandbox.clearRequests();
      return planApplyPlan(w, ADMIN_FILE);
    }
    // docs/servers.md: a config that declares what the release lacks is a plan error at its place; nothing is written.
    for (const kind of lacking) expect(plan.stderr, kind.name).toMatch(new RegExp(`forgeform\\.yaml:\\d+:\\d+: ${kind.configKey} need.*\\(server: `));
    expect(plan.stderr).toContain('Planning failed: nothing was changed.');
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET '))).toEqual([]);
    const refusals = plan.stderr.split('\n').filter((l) => l.includes('forgeform.yaml:'));
    for (const line of refusals) expect(line).toMatch(/ needs? Gitea .*\(server: (Gitea|Forgejo) [\d.]+\): the server (has no routes for them|would ignore it)$/);
    // Without those entries (what a user of that release deletes), the plan reads the server, and its guards refuse, each
    // at its place, what that release cannot do with the example's objects (default hooks it cannot list, public
    // memberships only their user may change); without those too, the rest of the example goes the whole journey.
    let text = without(ADMIN_TEXT, refusedPlaces(plan.stderr));
    const guarded = await w.cli(['plan', '-c', w.config(text), '--detailed-exitcode'], ADMIN_ENV);
    if (guarded.code === 1) {
      expect(guarded.stderr).toContain('Planning failed: nothing was changed.');
      expect(refusedPlaces(guarded.stderr).length).toBeGreaterThan(0);
      text = without(text, refusedPlaces(guarded.stderr));
    }
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET '))).toEqual([]);
    await planApplyPlan(w, w.config(text));
  });
});

/** The admin example's commands as README.md shows them: the environment it exports, and the counts its comments promise. */
function readmeAdminBlock(): { env: Record<string, string>; counts: string[] } {
  const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
  const block = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes('examples/admin/seed.yaml'));
  if (!block) throw new Error('README.md has no block running examples/admin');
  // Pasted as it is: the sandbox listens on the port FORGEFORM_URL names (no PORT to fill in), and the block stops it.
  const port = /sandbox .*--port (\d+) .*&$/m.exec(block)?.[1];
  expect(port, 'the sandbox line gives a fixed --port and runs in the background').toBeDefined();
  expect(block).toMatch(new RegExp(`^export FORGEFORM_URL=http://127\\.0\\.0\\.1:${port} `, 'm'));
  expect(block.trimEnd().split('\n').at(-1)).toMatch(/^kill %1\b/);
  const env = Object.fromEntries([...block.matchAll(/(?:export |\s)([A-Z_]+)=(\S+)/g)].filter((m) => !m[1]!.startsWith('FORGEFORM_')).map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, '')]));
  const counts = [...block.matchAll(/^node dist\/cli\/main\.js (plan|apply) .*# (.*)$/gm)].map((m) => m[2]!);
  return { env, counts };
}

describe("README's admin example commands", () => {
  it('export every variable the example names, and print the counts their comments say', async () => {
    const { env, counts } = readmeAdminBlock();
    const named = [...new Set([...ADMIN_TEXT.matchAll(/\$\{(?:env:)?([A-Za-z_]\w*)\}/g)].map((m) => m[1]!))].sort();
    expect(Object.keys(env).sort()).toEqual(named);
    // The example's own header shows the same commands.
    for (const name of named) expect(ADMIN_TEXT).toMatch(new RegExp(`^#.*export .*\\b${name}=`, 'm'));
    w = await world(loadSeedFile(`${ADMIN}seed.yaml`), {}, AS_RUN);
    const plan = await w.cli(['plan', '-c', ADMIN_FILE], env);
    const apply = await w.cli(['apply', '-c', ADMIN_FILE, '--yes'], env);
    const again = await w.cli(['plan', '-c', ADMIN_FILE], env);
    expect([plan.code, apply.code, again.code]).toEqual([0, 0, 0]);
    const [planned, applied, empty] = [plan.stderr, apply.stderr, again.stdout + again.stderr].map((t) => t.replace(/\s+/g, ' '));
    expect(counts).toHaveLength(3);
    expect(planned).toContain(counts[0]!.replace(/^(\d+) requests$/, '$1 requests.'));
    expect(applied).toContain(counts[1]!.replace(/^(\d+) writes \((\d+) requests in all\)$/, '$1 write requests ($2 in all).'));
    expect(counts[2]).toMatch(/^No changes \(\d+ requests\)$/);
    expect(empty).toContain('No changes');
    expect(empty).toContain(counts[2]!.replace(/^No changes \((\d+) requests\)$/, '$1 requests.'));
  });
});

const EXAMPLES = fileURLToPath(new URL('../../examples/', import.meta.url));
/** Every example with a config and a sandbox seed (gitops is a configuration repository: test/action runs it). */
const runnable = readdirSync(EXAMPLES).filter((d) => existsSync(`${EXAMPLES}${d}/forgeform.yaml`) && existsSync(`${EXAMPLES}${d}/seed.yaml`));

describe.each(runnable.map((d) => [d] as const))('examples/%s as committed', (dir) => {
  it('its header exports every variable it names, and with them it plans, applies and plans no change', async () => {
    const text = readFileSync(`${EXAMPLES}${dir}/forgeform.yaml`, 'utf8');
    const exported = [...text.matchAll(/^#\s+export (.*)$/gm)].flatMap((m) => [...m[1]!.matchAll(/([A-Z_][A-Z0-9_]*)=('[^']*'|\S+)/g)]);
    const env = Object.fromEntries(exported.filter((m) => !m[1]!.startsWith('FORGEFORM_')).map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, '')]));
    const named = [...new Set([...text.matchAll(/\$\{(?:env:)?([A-Za-z_]\w*)\}/g)].map((m) => m[1]!))].sort();
    expect(Object.keys(env).sort()).toEqual(named);
    w = await world(loadSeedFile(`${EXAMPLES}${dir}/seed.yaml`), {}, AS_RUN);
    const file = `${EXAMPLES}${dir}/forgeform.yaml`;
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(plan.code, plan.stderr).toBe(2);
    const apply = await w.cli(['apply', '-c', file, '--yes'], env);
    expect(apply.code, apply.stderr).toBe(0);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
    expect(again.stdout).toContain('No changes.');
    expect(again.code).toBe(0);
    for (const value of Object.values(env)) expect(plan.stdout + plan.stderr + apply.stdout + apply.stderr + again.stdout + again.stderr).not.toContain(value);
  });
});

describe('the examples in the docs', () => {
  it('every kind page links only examples that exist, and every runnable example is linked from a kind page', () => {
    const DOCS = fileURLToPath(new URL('../../docs/kinds/', import.meta.url));
    const linked = new Set<string>();
    for (const page of readdirSync(DOCS).filter((f) => f.endsWith('.md'))) {
      for (const m of readFileSync(`${DOCS}${page}`, 'utf8').matchAll(/\(\.\.\/\.\.\/examples\/([\w-]+)\)/g)) {
        expect(existsSync(`${EXAMPLES}${m[1]!}/forgeform.yaml`), `${page} links examples/${m[1]!}`).toBe(true);
        linked.add(m[1]!);
      }
    }
    for (const dir of runnable.filter((d) => d !== 'demo')) expect(linked.has(dir), `examples/${dir} is linked from no docs/kinds page`).toBe(true);
  });
});
