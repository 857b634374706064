// Files that are not configs, given to -c by mistake or on purpose: the error is short, says what the file is, and
// never repeats what looks like a credential.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, MAX_PROBLEMS_SHOWN } from '../../src/config/errors.js';
import { excerpt } from '../../src/config/excerpt.js';
import { loadConfig, MAX_CONFIG_BYTES } from '../../src/config/load.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forgeform-config-input-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string | Buffer): string {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
}

async function fails(paths: string[]): Promise<ConfigError> {
  const e = await loadConfig(paths, {}).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ConfigError);
  return e as ConfigError;
}

describe('a file that is not a config', () => {
  it('a .env file: named as not a config, its token never shown', async () => {
    const env = write('.env', '# deploy settings\nFORGEFORM_TOKEN=0123456789abcdef0123456789abcdef01234567\nFORGEFORM_URL=https://git.example.com\n');
    const e = await fails([env]);
    expect(e.message).toBe(`${env}:2:1: not a forgeform config: expected a YAML map that starts with "version: 1", got a single value`);
  });

  it('a YAML list is not a config either', async () => {
    const list = write('list.yaml', '- version: 1\n');
    const e = await fails([list]);
    expect(e.message).toBe(`${list}:1:1: not a forgeform config: expected a YAML map that starts with "version: 1", got a list`);
  });

  it('a binary file: one short line, not a quote of it', async () => {
    const bin = write('image.yaml', randomBytes(2 * 1024 * 1024));
    const e = await fails([bin]);
    expect(e.message).toBe(`${bin}: not a text file (it holds binary data): a config is a YAML text file`);
    // Latin-1 text has no NUL byte but is no UTF-8 either.
    const latin1 = write('latin1.yaml', Buffer.from('version: 1\norgs:\n  acme: { description: "caf\xe9" }\n', 'latin1'));
    expect((await fails([latin1])).message).toBe(`${latin1}: not a text file (it is not UTF-8): a config is a YAML text file in UTF-8`);
  });

  it('masks the value of KEY=VALUE and KEY: VALUE wherever a message quotes the file', async () => {
    const a = write(
      'a.yaml',
      [
        'version: 1',
        'repos:',
        '  "GITEA_TOKEN=s3cr3t-in-a-key x": {}',
        'users:',
        '  alice: { visibility: "API_KEY: sk-live-123", email: alice@example.com }',
        'policy:',
        '  prune: ["DB_PASSWORD=hunter2"]',
      ].join('\n'),
    );
    const e = await fails([a]);
    expect(e.message.split('\n')).toEqual([
      `${a}:3:3: key "GITEA_TOKEN=*** x" in repos must be "owner/name" or a glob over an owner's repositories like "acme/*"`,
      `${a}:5:24: users.alice.visibility must be one of public, limited, private, got "API_KEY: ***"`,
      `${a}:7:11: policy.prune[0] must be one of labels, teams, branch_protections, users, hooks, runners, tag_protections, push_mirrors, collaborators, secrets, variables, webhooks, deploy_keys, got "DB_PASSWORD=***"`,
    ]);
  });

  it('refuses a server URL with a user name and password, without repeating the password', async () => {
    const a = write('a.yaml', 'version: 1\nserver:\n  url: "https://admin:s3cr3t-pw@git.example.com"\nhooks:\n  - url: "ftp://ci:other-pw@ci.example.com/hook"\n');
    const e = await fails([a]);
    expect(e.message.split('\n')).toEqual([
      `${a}:3:8: server.url must be an http:// or https:// URL like "https://git.example.com", without a user name or password (give a token with FORGEFORM_TOKEN or --token-file), got "https://admin:***@git.example.com"`,
      `${a}:5:10: hooks[0].url must be an http:// or https:// URL, got "ftp://ci:***@ci.example.com/hook"`,
    ]);
    // A "@" after the host is no user name.
    const b = write('b.yaml', 'version: 1\nserver:\n  url: "https://git.example.com/sub?owner=@acme"\n');
    await expect(loadConfig([b], {})).resolves.toMatchObject({ config: { server: { url: 'https://git.example.com/sub?owner=@acme' } } });
  });

  it('quotes at most a short excerpt of a long key or value', async () => {
    const long = 'z'.repeat(500_000);
    const a = write('a.yaml', `version: 1\norgs:\n  acme: { visibility: "${long}" }\nrepos:\n  ? "${long}"\n  : {}\n`);
    const e = await fails([a]);
    const lines = e.message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`${a}:3:23: orgs.acme.visibility must be one of public, limited, private, got "${'z'.repeat(59)}…"`);
    expect(lines[1]).toMatch(new RegExp(`^${a}:5:5: key "z{59}…" in repos must be "owner/name"`));
  });

  it('names nesting too deep for the YAML parser', async () => {
    const a = write('a.yaml', `version: 1\norgs:\n  acme:\n    description: ${'['.repeat(5000)}${']'.repeat(5000)}\n`);
    const e = await fails([a]);
    expect(e.message).toMatch(new RegExp(`^${a}:4:\\d+: YAML nested too deeply: more than 64 levels \\(a config needs a few\\)$`));
  });

  it('lists the first problems of a file of garbage and counts the rest', async () => {
    const garbage = write('garbage.yaml', Array.from({ length: 2000 }, (_, i) => `- [${randomBytes(40).toString('base64')} ${i}`).join('\n'));
    const e = await fails([garbage]);
    const lines = e.message.split('\n');
    expect(e.problems.length).toBeGreaterThan(MAX_PROBLEMS_SHOWN);
    expect(lines).toHaveLength(MAX_PROBLEMS_SHOWN + 1);
    expect(lines.at(-1)).toBe(`… and ${e.problems.length - MAX_PROBLEMS_SHOWN} more problems (fix the ones above first)`);
    for (const line of lines.slice(0, -1)) expect(line).toMatch(new RegExp(`^${garbage}:\\d+:\\d+: YAML syntax error: `));
  });
});

describe('the size limit', () => {
  it('refuses a file over 5 MB without reading it', async () => {
    const big = write('big.yaml', '');
    truncateSync(big, MAX_CONFIG_BYTES + 1); // sparse: reading it would find only NUL bytes
    const e = await fails([big]);
    expect(e.message).toBe(`${big}: the file is 5.0 MB: a config may hold at most 5.0 MB in all (is this the right file?)`);
  });

  it('refuses the file that brings a directory over 5 MB in all', async () => {
    const filler = `version: 1\norgs:\n  acme:\n    description: "${'x'.repeat(3 * 1024 * 1024)}"\n`;
    write('a.yaml', filler);
    const b = write('b.yaml', filler.replace('acme', 'beta'));
    const e = await fails([dir]);
    expect(e.message).toBe(`${b}: this file brings the config to 6.0 MB: a config may hold at most 5.0 MB in all`);
  });
});

describe('excerpt', () => {
  it('keeps ordinary text and URLs, hides assignments, cuts long text', () => {
    expect(excerpt('https://git.example.com/a?b=1')).toBe('https://git.example.com/a?b=***');
    expect(excerpt('https://git.example.com')).toBe('https://git.example.com');
    expect(excerpt('see https://u:p%40ss@host/x and http://v:w@h')).toBe('see https://u:***@host/x and http://v:***@h');
    expect(excerpt('https://user@host/a@b')).toBe('https://user@host/a@b');
    // A password longer than what is shown is still masked, and a cut is always marked.
    expect(excerpt(`https://root:${'p'.repeat(300)}@git.example.com`)).toBe('https://root:***…');
    expect(excerpt(`https://root:${'p'.repeat(40)}@git.example.com/${'x'.repeat(100)}`)).toBe(`https://root:***@git.example.com/${'x'.repeat(26)}…`);
    expect(excerpt(`TOKEN=${'t'.repeat(300)}`)).toBe('TOKEN=***…');
    expect(excerpt('export TOKEN = abc def')).toBe('export TOKEN = *** def');
    expect(excerpt('password: x y', 60, false)).toBe('password: x y');
    expect(excerpt('a'.repeat(100), 10)).toBe(`${'a'.repeat(9)}…`);
    expect(excerpt(`${'a'.repeat(8)}😀b`, 10)).toBe(`${'a'.repeat(8)}…`);
  });
});
