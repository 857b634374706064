import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load.js';

// Issue 17 item 8: configs that used to plan something odd, or fail without a place, are config errors
// at file:line:col that quote nothing they should not.
const dir = mkdtempSync(join(tmpdir(), 'forgeform-hostile-'));
const write = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

async function errorLines(path: string): Promise<string[]> {
  try {
    await loadConfig([path], {});
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return (e as ConfigError).message.split('\n');
  }
  throw new Error('expected a config error');
}

describe('hostile or mistaken configs', () => {
  it('refuses a list as a key at its place, instead of a label named "[ a, b ]"', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    const f = write('complex-key.yaml', 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      ? [a, b]\n      : { color: ee0701 }\n');
    expect(await errorLines(f)).toEqual([`${f}:5:9: a key must be a name, not a list (in repos."acme/widgets".labels)`]);
    await new Promise((r) => setImmediate(r));
    process.off('warning', onWarning);
    expect(warnings, 'no library warning on stderr').toEqual([]);
  });

  it('says to quote a digit-only colour', async () => {
    const f = write('digits.yaml', 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: 123456 }\n');
    expect(await errorLines(f)).toEqual([`${f}:5:21: repos."acme/widgets".labels.bug.color must be string, got number 123456 (YAML reads it as a number: quote it as written, e.g. color: "123456")`]);
  });

  it('places an alias bomb at its first alias', async () => {
    const rows = ['version: 1', 'a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (const [name, prev] of [['b', 'a'], ['c', 'b'], ['d', 'c'], ['e', 'd']]) rows.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    const f = write('bomb.yaml', rows.join('\n') + '\n');
    expect(await errorLines(f)).toEqual([`${f}:3:8: aliases expand into too many copies (an anchor used over 100 times once expanded): a config needs few; write the values out`]);
  });

  it('does not quote the lines of a file that is no config (/etc/shadow)', async () => {
    const f = write('shadow', 'root:$6$c2VjcmV0:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n');
    const out = await errorLines(f);
    expect(out).toEqual([`${f}: not a forgeform config: a YAML map with none of its keys (version, server, policy, users, hooks, orgs, repos, actions); is this the right file?`]);
    expect(out.join('\n')).not.toContain('c2VjcmV0');
  });
});
