// Deploy keys end to end: the built CLI against the sandbox (see test/e2e/helpers.ts), on every flavour (every release read serves the routes).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import { requestsTo, writes, world, type World } from './helpers.js';

const K1 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFzTs3vPbQh5AxsIh24/MMxLjEmesV5G2HJ1NiSK/SkA';
const K2 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOrTV0okcMATMIelyq50skascjq71c2BzfcQ43zJYiEb';
const K3 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAICwGHNUgudm2+juycfrAd/o+K0SeXH3Q7hQGoe1ZrjrD';
const K4 = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAPCcQR4sye8FaUXkhu349REFJ9Suv034AM4UhA6C3mm';

const seed = (extra: Partial<SeedFile> = {}): SeedFile => ({
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [
    {
      name: 'acme/widgets',
      deploy_keys: [
        { title: 'ci', key: `${K1} ci@old-host`, read_only: true },
        { title: 'deployer', key: K2, read_only: true },
        { title: 'old', key: `${K3} old@host` },
      ],
    },
  ],
  ...extra,
});

// ci: the same key with another comment, wrapped over two lines (the server removes line breaks): no change.
const CONFIG = `version: 1
policy:
  prune: [deploy_keys]
repos:
  acme/widgets:
    deploy_keys:
      ci:
        key: "${K1.slice(0, 40)}\\n${K1.slice(40)} ci@new-host  "
        read_only: true
      deployer:
        key: ${K2}
        read_only: false
      release:
        key: ${K4} release@example.com
        read_only: true
`;

interface ApiKey {
  id: number;
  title: string;
  key: string;
  read_only: boolean;
}

let w: World;
afterEach(async () => w?.sandbox.close());

async function keys(w: World): Promise<ApiKey[]> {
  return (await w.api<ApiKey[]>('GET', 'repos/acme/widgets/keys')).body;
}

describe('deploy keys end to end', () => {
  for (const flavour of FLAVOURS) {
    it(`${flavour.name}: plan shows a create, a replacement and a prune, keys shortened; apply makes them; the next plan is empty`, async () => {
      w = await world(seed(), { flavour: flavour.name });
      const file = w.config(CONFIG);
      const planFile = join(w.dir, 'keys.plan');
      const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode', '--out', planFile]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(2);
      const out = plan.stdout;
      expect(out).toContain('+ deploy key "release"');
      // The key is long: its start and end, and its length.
      expect(out).toContain(`+ key       = "ssh-ed25519 AAAAC3NzaC1l…${K4.slice(-4)} release@example.com" (100 chars)`);
      expect(out).not.toContain(K4);
      // No edit route: read_only changed is a replacement, with why.
      expect(out).toContain('-/+ deploy key "deployer" (replaced: deleted and created again)');
      expect(out).toContain('~ read_only: true → false');
      expect(out).toContain('cannot edit a deploy key');
      expect(out).toContain('- deploy key "old"');
      // Only the comment (and a line break) differ: the same key, no change.
      expect(out).not.toContain('deploy key "ci"');
      // The plan file keeps the key whole.
      expect(readFileSync(planFile, 'utf8')).toContain(`${K4} release@example.com`);

      const before = await keys(w);
      const id = (title: string) => before.find((k) => k.title === title)!.id;
      w.sandbox.clearRequests();
      const apply = await w.cli(['apply', planFile, '--yes']);
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      expect(writes(w.sandbox).sort()).toEqual(['POST repos/acme/widgets/keys', 'POST repos/acme/widgets/keys', `DELETE repos/acme/widgets/keys/${id('deployer')}`, `DELETE repos/acme/widgets/keys/${id('old')}`].sort());
      // The replacement's delete goes first: the server refuses one key twice in a repository.
      const order = writes(w.sandbox);
      expect(order.indexOf(`DELETE repos/acme/widgets/keys/${id('deployer')}`)).toBeLessThan(order.lastIndexOf('POST repos/acme/widgets/keys'));
      const posts = requestsTo(w.sandbox, 'POST', 'repos/acme/widgets/keys').map((r) => r.body);
      expect(posts).toContainEqual({ title: 'release', key: `${K4} release@example.com`, read_only: true });
      expect(posts).toContainEqual({ title: 'deployer', key: K2, read_only: false });
      for (const r of w.sandbox.requests()) expect(r.unknownFields ?? [], `${r.method} ${r.path}`).toEqual([]);

      const after = await keys(w);
      expect(after.map((k) => [k.title, k.key, k.read_only]).sort()).toEqual([
        ['ci', `${K1} ci@old-host`, true],
        ['deployer', K2, false],
        ['release', `${K4} release@example.com`, true],
      ]);
      const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
      expect(again.code, again.stdout + again.stderr).toBe(0);
      expect(again.stdout).toContain('No changes');
    });
  }

  it('another key under a title is a replacement showing both keys shortened; the title moving to another key waits for the delete', async () => {
    w = await world(seed());
    // ci gets K3, which "old" holds now: old is pruned first, then ci replaced.
    const file = w.config(`version: 1\npolicy:\n  prune: [deploy_keys]\nrepos:\n  acme/widgets:\n    deploy_keys:\n      ci:\n        key: ${K3}\n      deployer:\n        key: ${K2}\n`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    expect(plan.stdout).toContain('-/+ deploy key "ci" (replaced: deleted and created again)');
    expect(plan.stdout).toContain(`~ key: "ssh-ed25519 AAAAC3NzaC1l…${K1.slice(-12)} ci@old-host" (92 chars) → "ssh-ed25519 AAAAC3NzaC1l…${K3.slice(-24)}" (80 chars)`);
    const old = (await keys(w)).find((k) => k.title === 'old')!.id;
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const order = writes(w.sandbox);
    expect(order.indexOf(`DELETE repos/acme/widgets/keys/${old}`)).toBeLessThan(order.indexOf('POST repos/acme/widgets/keys'));
    // read_only is not declared: the replacement keeps it as it was.
    expect(requestsTo(w.sandbox, 'POST', 'repos/acme/widgets/keys')[0]!.body).toEqual({ title: 'ci', key: K3, read_only: true });
    expect((await keys(w)).map((k) => [k.title, k.key]).sort()).toEqual([['ci', K3], ['deployer', K2]]);
    const again = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it('keeps undeclared deploy keys without deploy_keys in policy.prune', async () => {
    w = await world(seed());
    const file = w.config(`version: 1\nrepos:\n  acme/widgets:\n    deploy_keys:\n      ci:\n        key: ${K1}\n        read_only: true\n`);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).not.toContain('- deploy key');
    expect(plan.stdout).toMatch(/Kept: .*deploy key.* in acme\/widgets .*add deploy_keys to policy\.prune/s);
  });

  it('refuses at plan, at the key\'s line, a key declared twice, a key another title keeps, and a text that is no key; nothing is written', async () => {
    w = await world(seed());
    const file = w.config(`version: 1
repos:
  acme/widgets:
    deploy_keys:
      a:
        key: ${K4} first
      b:
        key: ${K4} second
      c:
        key: ${K3}
      d:
        key: ssh-ed25519 not-a-key
      e:
        key: ssh-rsa ${K2.split(' ')[1]}
`);
    w.sandbox.clearRequests();
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stderr).toMatch(/forgeform\.yaml:8:9: .*the same key as deploy key "a" \(ssh-ed25519 SHA256:[^)]+\): the server refuses one key twice in a repository \(422 "This key has already been added to this repository"\)/);
    expect(plan.stderr).toMatch(/forgeform\.yaml:10:9: .*this key is already deploy key "old" of acme\/widgets: the server refuses it twice .*add deploy_keys to policy\.prune/);
    expect(plan.stderr).toMatch(/forgeform\.yaml:12:9: .*not an SSH public key the server reads .*"not-a-key" is not the base64 of an SSH public key/);
    expect(plan.stderr).toMatch(/forgeform\.yaml:14:9: .*key type and content does not match: ssh-rsa - ssh-ed25519/);
    expect(plan.stderr).not.toMatch(/at .*\.js:\d+/);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('a key that is a user\'s key elsewhere: apply fails with the server\'s status and message, the rest is made', async () => {
    w = await world(seed({ users: [{ username: 'root', admin: true, email: 'root@example.com' }, { username: 'alice', email: 'alice@example.com', keys: [{ title: 'laptop', key: K4 }] }] }));
    const file = w.config(`version: 1\nrepos:\n  acme/widgets:\n    deploy_keys:\n      laptop:\n        key: ${K4}\n      new:\n        key: ${K2.replace('AAAAIOr', 'AAAAIOs')}\n`);
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).not.toBe(0);
    expect(apply.stdout + apply.stderr).toMatch(/deploy key "laptop".*422.*Key content has been used as non-deploy key/s);
    expect((await keys(w)).map((k) => k.title).sort()).toEqual(['ci', 'deployer', 'new', 'old']);
  });

  it('export writes them, and planning the export against the same server shows no changes', async () => {
    w = await world(seed());
    const out = join(w.dir, 'exported.yaml');
    const exp = await w.cli(['export', '--include', 'acme/widgets', '--include', 'deploy_keys', '-o', out]);
    expect(exp.code, exp.stdout + exp.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain(`key: ${K1} ci@old-host`);
    expect(text).toMatch(/deployer:\n\s+key: ssh-ed25519 \S+\n\s+read_only: true/);
    const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode']);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
