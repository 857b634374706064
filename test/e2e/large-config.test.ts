// A large config, as a user sees it (issue 17, "scale to the cap"): its long steps say how far they are on
// stderr, its saved plan holds one change a line and applies, and the sandbox's --seed has the config's
// size bound. Times and memory are measured by `npm run bench:cap` (docs/benchmark.md), never here.
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES } from '../../src/config/limits.js';
import { runCli, world, type World } from './helpers.js';

const LABELS = 12_000;
/** The server has all labels but the last NEW: the plan creates those (an apply of 12,000 creates takes a minute). */
const NEW = 25;
const labelName = (i: number) => `area/component-${String(i).padStart(5, '0')}`;
const description = (i: number) => `Label ${i} of a large config`;

let w: World;
beforeAll(async () => {
  const labels = Array.from({ length: LABELS - NEW }, (_, i) => ({ name: labelName(i), color: 'ee0701', description: description(i) }));
  w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }], orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets', labels }] });
});
afterAll(async () => {
  await w?.sandbox.close();
});

describe('a config of 1 MB and more', () => {
  it('says on stderr how far reading, planning and writing the plan are, and saves a plan of one change a line that applies', { timeout: 300_000 }, async () => {
    const lines = ['version: 1', 'repos:', '  acme/widgets:', '    labels:'];
    for (let i = 0; i < LABELS; i++) lines.push(`      ${labelName(i)}: { color: "ee0701", description: "${description(i)}" }`);
    const config = w.config(`${lines.join('\n')}\n`);
    expect(statSync(config).size).toBeGreaterThan(1024 * 1024);
    const planFile = join(w.dir, 'large.plan.json');

    const r = await w.cli(['plan', '-c', config, '--out', planFile]);
    expect(r.code).toBe(0);
    const stderr = r.stderr.split('\n');
    expect(stderr[0]).toMatch(/^Reading the configuration \(1\.\d MB\)…$/);
    expect(stderr[1]).toMatch(/^Read the configuration in \d+\.\ds\.$/);
    expect(stderr).toContainEqual(expect.stringMatching(new RegExp(`^Planning the declared objects: ${LABELS}/${LABELS} \\(\\d+\\.\\ds\\)$`)));
    expect(stderr).toContainEqual(`Writing the plan to ${planFile}…`);
    expect(r.stdout).toContain(`Plan: ${NEW} to create, 0 to update, 0 to delete`);

    // One change a line, after the plan's own keys: the file grows by what a change holds, not by indentation.
    const text = readFileSync(planFile, 'utf8');
    const fileLines = text.trimEnd().split('\n');
    const changeLines = fileLines.filter((l) => l.startsWith('    {"id":'));
    expect(changeLines).toHaveLength(NEW);
    expect(fileLines.length).toBeLessThan(NEW + 40);
    const plan = JSON.parse(text) as { changes: unknown[] };
    expect(plan.changes).toHaveLength(NEW);
    // Each change takes its compact JSON and 6 characters (indentation, comma, line break), nothing repeated around
    // it: the file was 790 bytes a change, most of it indentation, and is about 470 now (docs/benchmark.md).
    for (const line of [changeLines[0]!, changeLines[NEW - 1]!]) expect(line.trim().replace(/,$/, '')).toBe(JSON.stringify(JSON.parse(line.trim().replace(/,$/, ''))));
    const compact = plan.changes.reduce((n: number, c) => n + JSON.stringify(c).length + 6, 0);
    expect(text.length - compact).toBeLessThan(1000);

    const applied = await w.cli(['apply', planFile, '--yes']);
    expect(applied.code).toBe(0);
    const again = await w.cli(['plan', '-c', config]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/No changes/);
  });

  it('prints no progress for a small config', async () => {
    const r = await w.cli(['plan', '-c', w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n', 'small.yaml')]);
    expect(r.stderr).not.toMatch(/Reading the configuration|Planning the declared objects|Writing the plan/);
  });
});

describe("the sandbox's --seed", () => {
  it('refuses a seed over the config size bound before reading it, saying so in one line', async () => {
    const seed = join(w.dir, 'huge-seed.yaml');
    writeFileSync(seed, '');
    truncateSync(seed, MAX_CONFIG_BYTES + 1); // sparse: never read
    const r = await runCli(['sandbox', '--seed', seed, '--port', '0']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe(`forgeform sandbox: --seed ${seed}: the file is 5.0 MB: a seed may hold at most 5.0 MB, as a config (is this the right file?)`);
  });
});
