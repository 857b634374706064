// Kind names outside the registry: config and prune keys must stay unique across scope types (a new
// kind cannot take a key another kind's users already write), and the help texts name the registry's
// kinds (src/cli/program.ts makes those lists from it when help is shown).
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/program.js';
import { kinds } from '../../src/kinds/index.js';
import { exportable, targetTypes, type KindMeta } from '../../src/model/index.js';

/**
 * The family of a kind: kinds of several scope types that share one folder are each named
 * `<scope type>_<family>` (repo_label, org_label); any other kind is a family of its own (the
 * server's `hook` is not the family of a `repo_hook`).
 */
const familyOf = (k: KindMeta) => (k.name.startsWith(`${k.scopeType}_`) ? `family ${k.name.slice(k.scopeType.length + 1)}` : `kind ${k.name}`);

/** Keys (config or prune) that kinds of two families share: each would read or prune the other's objects. */
function sharedKeys(list: KindMeta[], key: 'configKey' | 'pruneKey'): string[] {
  const owners = new Map<string, KindMeta[]>();
  for (const k of list) if (k[key]) owners.set(k[key], [...(owners.get(k[key]) ?? []), k]);
  return [...owners].filter(([, ks]) => new Set(ks.map(familyOf)).size > 1).map(([value, ks]) => `${key} "${value}": ${ks.map((k) => k.name).join(', ')}`);
}

describe('the keys of the kinds', () => {
  it('are unique across scope types: a config key or prune key belongs to one family of kinds', () => {
    expect(sharedKeys(kinds, 'configKey')).toEqual([]);
    expect(sharedKeys(kinds, 'pruneKey')).toEqual([]);
  });

  it('(a repository webhook kind cannot take `hooks`, the admin webhooks’ key; the label family shares `labels`, the webhook family `webhooks`)', () => {
    const repoHook = { name: 'repo_hook', scopeType: 'repo', configKey: 'hooks', pruneKey: 'hooks' } as KindMeta;
    expect(sharedKeys([...kinds, repoHook], 'configKey')).toEqual(['configKey "hooks": hook, repo_hook']);
    expect(sharedKeys([...kinds, repoHook], 'pruneKey')).toEqual(['pruneKey "hooks": hook, repo_hook']);
    // `webhooks` belongs to the webhook family (repo_webhook, org_webhook): a kind outside it cannot take it either.
    expect(sharedKeys([...kinds, { ...repoHook, configKey: 'webhooks', pruneKey: 'webhooks' }], 'configKey')).toEqual(['configKey "webhooks": org_webhook, repo_webhook, repo_hook']);
    expect(kinds.filter((k) => k.configKey === 'labels').map(familyOf)).toEqual(['family label', 'family label']);
    expect(kinds.filter((k) => k.configKey === 'webhooks').map(familyOf)).toEqual(['family webhook', 'family webhook']);
  });
});

/** The text of an option in a command's help. */
async function optionHelp(command: string, option: string): Promise<string> {
  const { stdout } = await runCommand([command, '--help'], { capture: true });
  const start = stdout.indexOf(option);
  expect(start, `${command} --help has ${option}`).toBeGreaterThan(-1);
  return stdout.slice(start, stdout.indexOf('\n  -', start + 1)).replace(/\s+/g, ' ');
}

describe('the kinds that help texts list', () => {
  it('export --include names every kind export writes, by config key', async () => {
    const help = await optionHelp('export', '--include');
    const listed = /a kind \(([^)]*)\)/.exec(help)?.[1]?.split(/[;,]\s*/) ?? [];
    const exported = [...new Set(kinds.filter(exportable).map((k) => k.configKey))];
    expect([...listed].sort()).toEqual([...exported].sort());
  });

  it('plan and apply --target name every selector type of the registry', async () => {
    for (const command of ['plan', 'apply']) {
      const help = await optionHelp(command, '--target');
      const listed = [...help.matchAll(/\b([a-z_]+):[A-Z]/g)].map((m) => m[1]);
      expect(listed, command).toEqual(targetTypes(kinds).map((t) => t.type));
    }
  });
});
