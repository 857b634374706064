// A config split over several files: maps merge by key at every level, so one repository's labels may live in one
// file and its branch protections in another; only the same field written twice is an error.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forgeform-config-merge-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, ...lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

async function problems(): Promise<string[]> {
  const e = await loadConfig([dir], {}).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ConfigError);
  return (e as ConfigError).message.split('\n');
}

describe('a config split over several files', () => {
  it("merges one repository's sections and one label's fields, and locates each value in its own file", async () => {
    const a = write(
      'a-labels.yaml',
      'version: 1',
      'repos:',
      '  acme/widgets:',
      '    labels:',
      '      bug: { color: ee0701 }',
      '      feature: { color: 00ff00 }',
    );
    const b = write(
      'b-protections.yaml',
      'version: 1',
      'repos:',
      '  acme/widgets:',
      '    branch_protections:',
      '      main: { required_approvals: 1 }',
      '    labels:',
      '      bug:',
      '        description: "Something is not working"',
      '      docs: { color: "0000ff" }',
    );
    const c = write('c-orgs.yaml', 'version: 1', 'orgs:', '  acme:', '    labels:', '      triage: { color: aaaaaa }');
    const d = write('d-orgs.yaml', 'version: 1', 'orgs:', '  acme:', '    description: The ACME company', 'users:', '  alice: { email: alice@example.com }');
    const e = write('e-users.yaml', 'version: 1', 'users:', '  alice:', '    full_name: Alice Liddell');

    const loaded = await loadConfig([dir], {});
    expect(loaded.config.repos).toEqual({
      'acme/widgets': {
        labels: {
          bug: { color: 'ee0701', description: 'Something is not working' },
          feature: { color: '00ff00' },
          docs: { color: '0000ff' },
        },
        branch_protections: { main: { required_approvals: 1 } },
      },
    });
    expect(loaded.config.orgs).toEqual({ acme: { labels: { triage: { color: 'aaaaaa' } }, description: 'The ACME company' } });
    expect(loaded.config.users).toEqual({ alice: { email: 'alice@example.com', full_name: 'Alice Liddell' } });

    const widgets = ['repos', 'acme/widgets'];
    expect(loaded.locate(widgets, true)).toEqual({ file: a, line: 3, col: 3 });
    expect(loaded.locate([...widgets, 'labels', 'bug'], true)).toEqual({ file: a, line: 5, col: 7 });
    expect(loaded.locate([...widgets, 'labels', 'bug', 'color'])).toEqual({ file: a, line: 5, col: 21 });
    expect(loaded.locate([...widgets, 'labels', 'bug', 'description'])).toEqual({ file: b, line: 8, col: 22 });
    expect(loaded.locate([...widgets, 'labels', 'feature', 'color'])).toEqual({ file: a, line: 6, col: 25 });
    expect(loaded.locate([...widgets, 'labels', 'docs'], true)).toEqual({ file: b, line: 9, col: 7 });
    expect(loaded.locate([...widgets, 'branch_protections', 'main', 'required_approvals'])).toEqual({ file: b, line: 5, col: 35 });
    expect(loaded.locate(['orgs', 'acme', 'labels', 'triage'], true)).toEqual({ file: c, line: 5, col: 7 });
    expect(loaded.locate(['orgs', 'acme', 'description'])).toEqual({ file: d, line: 4, col: 18 });
    expect(loaded.locate(['users', 'alice', 'email'])).toEqual({ file: d, line: 6, col: 19 });
    expect(loaded.locate(['users', 'alice', 'full_name'])).toEqual({ file: e, line: 4, col: 16 });
    // Not written anywhere.
    expect(loaded.locate([...widgets, 'labels', 'wontfix'])).toBeUndefined();
    expect(loaded.locate([...widgets, 'labels', 'bug', 'exclusive'])).toBeUndefined();
    expect(loaded.locate(['repos', 'acme/gadgets'])).toBeUndefined();
  });

  it('names both places of every field written twice, at any depth', async () => {
    const a = write(
      'a.yaml',
      'version: 1',
      'repos:',
      '  acme/widgets:',
      '    labels:',
      '      bug: { color: ee0701, description: Broken }',
      '    issues:',
      '      42: { labels: [bug] }',
      'orgs:',
      '  acme: { description: One }',
    );
    const b = write(
      'b.yaml',
      'version: 1',
      'repos:',
      '  acme/widgets:',
      '    labels:',
      '      bug:',
      '        color: "00ff00"',
      '        exclusive: true',
      '    issues:',
      '      "42": { labels: [bug], state: open }',
      'orgs:',
      '  acme: { description: Two }',
    );
    expect(await problems()).toEqual([
      `${b}:6:9: repos."acme/widgets".labels.bug.color is declared twice: ${a}:5:14 and ${b}:6:9`,
      `${b}:9:15: repos."acme/widgets".issues.42.labels is declared twice: ${a}:7:13 and ${b}:9:15`,
      `${b}:11:11: orgs.acme.description is declared twice: ${a}:9:11 and ${b}:11:11`,
    ]);
  });

  it('concatenates hooks and locates each in its own file', async () => {
    const a = write('a.yaml', 'version: 1', 'hooks:', '  - url: https://a.example.com/1', '  - url: https://a.example.com/2');
    write('b.yaml', 'version: 1', 'repos:', '  acme/widgets: { labels: {} }');
    const c = write('c.yaml', 'version: 1', 'hooks:', '  - url: https://c.example.com/1');
    const loaded = await loadConfig([dir], {});
    expect(loaded.config.hooks?.map((h) => h.url)).toEqual(['https://a.example.com/1', 'https://a.example.com/2', 'https://c.example.com/1']);
    expect(loaded.locate(['hooks', 1, 'url'])).toEqual({ file: a, line: 4, col: 10 });
    expect(loaded.locate(['hooks', 2, 'url'])).toEqual({ file: c, line: 3, col: 10 });
    expect(loaded.locate(['hooks', 3])).toBeUndefined();
  });

  it('never changes a map that an alias shares', async () => {
    write('a.yaml', 'version: 1', 'repos:', '  acme/one:', '    labels: &common', '      bug: { color: ee0701 }', '  acme/two:', '    labels: *common');
    write('b.yaml', 'version: 1', 'repos:', '  acme/one:', '    labels:', '      docs: { color: "0000ff" }');
    const loaded = await loadConfig([dir], {});
    expect(loaded.config.repos?.['acme/one']?.labels).toEqual({ bug: { color: 'ee0701' }, docs: { color: '0000ff' } });
    expect(loaded.config.repos?.['acme/two']?.labels).toEqual({ bug: { color: 'ee0701' } });
  });

  it('still allows server and policy in one file only', async () => {
    const a = write('a.yaml', 'version: 1', 'policy: { prune: [labels] }');
    const b = write('b.yaml', 'version: 1', 'policy: { max_deletes: 3 }');
    expect(await problems()).toEqual([`${b}:2:1: policy is declared twice: ${a}:2:1 and ${b}:2:1 (it may be written in one file only)`]);
  });
});
