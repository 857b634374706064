/**
 * Two runs at once: each sees a label missing and creates it, and the server (which does not keep
 * label names unique) ends with two. apply reads again where it created and names every such
 * duplicate as created concurrently by another run, exiting 1.
 */
import { describe, expect, it } from 'vitest';
import { firstTimes } from '../support/misbehaving-proxy.js';
import type { ApiLabel } from '../support/api-types.js';
import { rootAndAcme, widgetsLabelsConfig } from '../support/seeds.js';
import { runCli } from './helpers.js';
import { proxiedWorlds, type ProxiedWorld } from './proxied-world.js';

const NAMES = Array.from({ length: 20 }, (_, i) => `area/${String(i).padStart(2, '0')}`);
const seed = rootAndAcme({ repos: [{ name: 'acme/widgets' }] });
const config = widgetsLabelsConfig(NAMES.map((name) => ({ name, color: '00aa00' })));

const start = proxiedWorlds();
let w: ProxiedWorld;

const serverLabels = async () => (await w.api<ApiLabel[]>('GET', 'repos/acme/widgets/labels?limit=50')).body.map((l) => l.name);
const duplicated = (names: string[]) => [...new Set(names.filter((n, i) => names.indexOf(n) !== i))].sort();

describe('two runs at once', () => {
  it('a label another run creates while this one does is named as created concurrently, and apply exits 1', async () => {
    // Just before this run's first create reaches the server, "another run" creates the same label.
    w = await start(
      seed,
      firstTimes(1, (r) => r.method === 'POST' && r.path === 'repos/acme/widgets/labels', {
        type: 'before',
        run: async () => {
          const mine = NAMES[0]!;
          await w.api('POST', 'repos/acme/widgets/labels', { name: mine, color: '00aa00' });
        },
      }),
    );
    // A run that takes no lock (--no-lock), or a human acting by hand meanwhile.
    const apply = await w.viaProxy(['apply', '--yes', '--no-lock', '--concurrency', '1', '-c', w.config(config)]);
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('Apply complete! 20 created');
    expect(apply.stdout).toContain(`✗ label "${NAMES[0]}" in repo:acme/widgets: created concurrently by another run (2 with this name on the server now;`);
    expect(apply.stdout.match(/created concurrently/g)).toHaveLength(1);
    expect(duplicated(await serverLabels())).toEqual([NAMES[0]]);

    // and the next plan names the duplicate instead of silently leaving it
    const plan = await w.cli(['plan', '-c', `${w.dir}/forgeform.yaml`]);
    expect(plan.stdout).toMatch(new RegExp(`label "${NAMES[0]}" in acme/widgets: 2 labels with this name exist on the server \\(id \\d+ on 0 issues, id \\d+ on 0 issues\\)`));
  });

  it('two real applies at once without the lock (--no-lock): every duplicate on the server is named by a run that created it', async () => {
    // Both runs read the labels before either creates one (the proxy holds the creates until both
    // lists were read), as two CI jobs started together do.
    const listReads = () => w.proxy.seen.filter((r) => r.method === 'GET' && r.path === 'repos/acme/widgets/labels').length;
    const bothHaveRead = async () => {
      for (let i = 0; i < 500 && listReads() < 2; i++) await new Promise((r) => setTimeout(r, 10));
    };
    w = await start(seed, (r) => (r.method === 'POST' ? { type: 'before', run: bothHaveRead } : undefined), { latencyMs: 10 });
    const file = w.config(config);
    const env = { ...w.env, FORGEFORM_URL: w.proxy.url, NO_COLOR: '1' };
    // Two runs at the same time: a process each.
    const [a, b] = await Promise.all([runCli(['apply', '--yes', '--no-lock', '-c', file], { env, cwd: w.dir, process: true }), runCli(['apply', '--yes', '--no-lock', '-c', file], { env, cwd: w.dir, process: true })]);
    const dups = duplicated(await serverLabels());
    const named = (out: string) => [...out.matchAll(/✗ label "([^"]+)" in repo:acme\/widgets: created concurrently by another run/g)].map((m) => m[1]!);
    const reported = [...new Set([...named(a.stdout), ...named(b.stdout)])].sort();
    console.log(`two applies at once: ${dups.length} duplicates on the server, ${reported.length} named as created concurrently`);
    expect(dups).toEqual([...NAMES].sort());
    expect(reported).toEqual(dups);
    // the run that created last sees both copies of each of its labels: it names them and exits 1
    expect([a.code, b.code]).toContain(1);
    for (const r of [a, b]) expect(r.code).toBe(named(r.stdout).length ? 1 : 0);
  });
});
