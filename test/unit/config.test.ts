import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, type ConfigProblem } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { formatPath } from '../../src/config/path.js';
import { configSchema, validateConfig } from '../../src/config/validate.js';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forgeform-config-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Writes a file into the temp dir (lines joined with \n) and returns its path. */
function write(name: string, ...lines: string[]): string {
  const file = join(dir, name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

/** Loads and expects a ConfigError; returns it. */
async function fails(paths: string[], env: NodeJS.ProcessEnv = {}): Promise<ConfigError> {
  try {
    await loadConfig(paths, env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected loadConfig to fail');
}

/** The problems as `file:line:col: message` lines. */
function lines(e: ConfigError): string[] {
  return e.message.split('\n');
}

describe('loadConfig: schema errors', () => {
  it('reports an unknown key at the key, with a suggestion', async () => {
    const a = write(
      'a.yaml',
      'version: 1',
      'repos:',
      '  acme/widgets:',
      '    labels:',
      '      bug:',
      '        colour: ee0701',
    );
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:6:9: unknown key "colour" in repos."acme/widgets".labels.bug (did you mean "color"?)`]);
    expect(e.problems).toEqual([
      { file: a, line: 6, col: 9, message: 'unknown key "colour" in repos."acme/widgets".labels.bug (did you mean "color"?)' },
    ]);
  });

  it('lists the allowed keys when no key is close', async () => {
    const a = write('a.yaml', 'version: 1', 'zzz: 1');
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:2:1: unknown key "zzz" at the top level (expected one of: version, server, policy, users, hooks, orgs, repos, actions)`]);
  });

  it('reports a wrong type at the value (yes is a string in YAML 1.2)', async () => {
    const a = write('a.yaml', 'version: 1', 'repos:', '  acme/widgets:', '    labels:', '      bug: { color: ee0701, exclusive: yes }');
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:5:40: repos."acme/widgets".labels.bug.exclusive must be boolean, got string "yes"`]);
  });

  it('reports an enum value with a suggestion', async () => {
    const a = write('a.yaml', 'version: 1', 'policy:', '  prune: [labels, label]');
    const e = await fails([a]);
    expect(lines(e)).toEqual([
      `${a}:3:19: policy.prune[1] must be one of labels, teams, branch_protections, users, hooks, runners, tag_protections, push_mirrors, collaborators, secrets, variables, webhooks, deploy_keys, got "label" (did you mean "labels"?)`,
    ]);
  });

  it('explains a colour pattern', async () => {
    const a = write('a.yaml', 'version: 1', 'repos:', '  acme/widgets:', '    labels:', '      bug:', '        color: red');
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:6:16: repos."acme/widgets".labels.bug.color must be a colour like "ee0701" or "#ee0701", got "red"`]);
  });

  it('hints at quoting when an unquoted # made the colour a comment', async () => {
    const a = write('a.yaml', 'version: 1', 'orgs:', '  acme:', '    labels:', '      bug:', '        color: #ee0701');
    const e = await fails([a]);
    expect(lines(e)).toEqual([
      `${a}:6:16: orgs.acme.labels.bug.color must be string, got null (quote the colour: an unquoted "#" starts a YAML comment)`,
    ]);
  });

  it('reports a missing required key at the parent map', async () => {
    const a = write('a.yaml', '# no version here', 'server:', '  url: https://git.example.com');
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:2:1: missing required key "version" at the top level (expected "version: 1")`]);
  });

  it('reports a wrong version', async () => {
    const a = write('a.yaml', 'version: 2');
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:1:10: version must be 1, got number 2`]);
  });

  it('reports a bad map key once, at the key', async () => {
    const a = write('a.yaml', 'version: 1', 'repos:', '  widgets:', '    labels: {}', '  "":', '    labels: {}');
    const e = await fails([a]);
    expect(lines(e)).toEqual([
      `${a}:3:3: key "widgets" in repos must be "owner/name" or a glob over an owner's repositories like "acme/*"`,
      `${a}:5:3: key "" in repos must be "owner/name" or a glob over an owner's repositories like "acme/*"`,
    ]);
  });

  it('reports an empty label name and an empty rule name', async () => {
    const a = write('a.yaml', 'version: 1', 'repos:', '  acme/*:', '    labels:', '      "": {}', '    branch_protections:', '      "": {}');
    const e = await fails([a]);
    expect(lines(e)).toEqual([
      `${a}:5:7: key "" in repos."acme/*".labels must be a non-empty label name`,
      `${a}:7:7: key "" in repos."acme/*".branch_protections must be a non-empty rule name`,
    ]);
  });

  it('reports limits, duplicates and empty strings', async () => {
    const a = write(
      'a.yaml',
      'version: 1',
      'policy:',
      '  prune: [labels, users, labels]',
      '  max_deletes: -1',
      'repos:',
      '  acme/widgets:',
      '    labels:',
      '      bug: { previously: [""] }',
      '    branch_protections:',
      '      main: { priority: 0, required_approvals: 1.5 }',
    );
    const e = await fails([a]);
    expect(lines(e)).toEqual([
      `${a}:3:26: policy.prune[2] repeats "labels", already at policy.prune[0]`,
      `${a}:4:16: policy.max_deletes must be at least 0, got number -1`,
      `${a}:8:27: repos."acme/widgets".labels.bug.previously[0] must not be empty`,
      `${a}:10:25: repos."acme/widgets".branch_protections.main.priority must be at least 1, got number 0`,
      `${a}:10:48: repos."acme/widgets".branch_protections.main.required_approvals must be integer, got number 1.5`,
    ]);
  });

  it('reports a wrong server URL', async () => {
    const a = write('a.yaml', 'version: 1', 'server:', '  url: git.example.com');
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:3:8: server.url must be an http:// or https:// URL like "https://git.example.com", without a user name or password (give a token with FORGEFORM_TOKEN or --token-file), got "git.example.com"`]);
  });

  it('reports every problem of every file, sorted by file, line and column', async () => {
    write('b.yaml', 'version: 1', 'orgs:', '  acme:', '    labelz: {}');
    write('a.yaml', 'version: 1', 'policy:', '  max_deletes: x', '  prune: [label]');
    const e = await fails([dir]);
    expect(e.problems.map((p) => [p.file, p.line, p.col])).toEqual([
      [join(dir, 'a.yaml'), 3, 16],
      [join(dir, 'a.yaml'), 4, 11],
      [join(dir, 'b.yaml'), 4, 5],
    ]);
    expect(e.message).toBe(e.problems.map((p: ConfigProblem) => `${p.file}:${p.line}:${p.col}: ${p.message}`).join('\n'));
  });
});

describe('loadConfig: YAML errors', () => {
  it('reports a syntax error with its position', async () => {
    const a = write('a.yaml', 'version: 1', 'repos:', '  acme/widgets:', '    labels: [bug', 'x: 1');
    const e = await fails([a]);
    expect(e.problems).toHaveLength(1);
    expect(e.problems[0]).toMatchObject({ file: a, line: 5, col: 1 });
    expect(e.problems[0]!.message).toMatch(/^YAML syntax error: /);
    expect(e.message).not.toContain('\n');
  });

  it('reports a duplicate key at the second one, naming the first', async () => {
    const a = write('a.yaml', 'version: 1', 'repos:', '  acme/widgets:', '    labels:', '      bug: {}', '      bug: {}');
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:6:7: duplicate key "bug" in repos."acme/widgets".labels (first at line 5, column 7)`]);
  });

  it('rejects an empty file and several documents', async () => {
    const a = write('a.yaml', '# nothing');
    const b = write('b.yaml', 'version: 1', '---', 'version: 1');
    const e = await fails([a, b]);
    expect(lines(e)).toEqual([
      `${a}:1:1: the file is empty (expected at least "version: 1")`,
      `${b}:2:1: a config file holds one YAML document: remove the "---" separator or split the file`,
    ]);
  });

  it('rejects unknown tags', async () => {
    const a = write('a.yaml', 'version: 1', 'server:', '  url: !env URL');
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:3:8: unknown tag !env: a config is plain YAML (use \${NAME} to read an environment variable)`]);
  });
});

describe('loadConfig: files and directories', () => {
  it('reports a path that does not exist', async () => {
    const missing = join(dir, 'nope.yaml');
    const e = await fails([missing]);
    expect(e.problems).toEqual([{ file: missing, line: 0, col: 0, message: 'no such file or directory' }]);
    expect(e.message).toBe(`${missing}: no such file or directory`);
  });

  it('reports a directory without YAML files', async () => {
    write('conf/readme.txt', 'hello');
    const e = await fails([join(dir, 'conf')]);
    expect(e.message).toBe(`${join(dir, 'conf')}: no *.yaml or *.yml files in this directory`);
  });

  it('merges the files of a directory in sorted order', async () => {
    write('b.yml', 'version: 1', 'repos:', '  acme/gadgets:', '    labels:', '      bug: { color: ee0701 }');
    write('a.yaml', 'version: 1', 'repos:', '  acme/widgets:', '    labels:', '      bug: { color: "#00aabb" }');
    write('sub/c.yaml', 'version: 2'); // not read: directories are not recursive
    write('notes.txt', 'not yaml');
    const loaded = await loadConfig([dir], {});
    expect(loaded.files).toEqual([join(dir, 'a.yaml'), join(dir, 'b.yml')]);
    expect(Object.keys(loaded.config.repos ?? {})).toEqual(['acme/widgets', 'acme/gadgets']);
    expect(loaded.config.repos?.['acme/gadgets']?.labels?.bug?.color).toBe('ee0701');
  });

  it('accepts several paths and reads a file given twice once', async () => {
    const a = write('one/a.yaml', 'version: 1', 'orgs:', '  acme: { labels: { bug: { color: ee0701 } } }');
    write('two/b.yaml', 'version: 1', 'orgs:', '  beta: { label_template: Default }');
    const loaded = await loadConfig([a, join(dir, 'two'), join(dir, 'one')], {});
    expect(loaded.files).toEqual([a, join(dir, 'two', 'b.yaml')]);
    expect(Object.keys(loaded.config.orgs ?? {})).toEqual(['acme', 'beta']);
  });

  it('merges an entry written in two files, and names both places of a field written twice', async () => {
    write('a.yaml', 'version: 1', 'repos:', '  acme/widgets:', '    labels: {}');
    const b = write('b.yaml', 'version: 1', 'orgs:', '  acme: {}', 'repos:', '  acme/other: {}', '  acme/widgets:', '    label_template: Default');
    const loaded = await loadConfig([dir], {});
    expect(loaded.config.repos?.['acme/widgets']).toEqual({ labels: {}, label_template: 'Default' });
    write('c.yaml', 'version: 1', 'repos:', '  acme/widgets:', '    label_template: Default');
    const e = await fails([dir]);
    expect(lines(e)).toEqual([`${join(dir, 'c.yaml')}:4:5: repos."acme/widgets".label_template is declared twice: ${b}:7:5 and ${join(dir, 'c.yaml')}:4:5`]);
  });

  it('allows server and policy in one file only', async () => {
    const a = write('a.yaml', 'version: 1', 'server: { url: "https://a.example.com" }', 'policy: { prune: [labels] }');
    const b = write('b.yaml', 'version: 1', 'policy:', '  max_deletes: 3', 'server:', '  url: https://b.example.com');
    const e = await fails([a, b]);
    expect(lines(e)).toEqual([
      `${b}:2:1: policy is declared twice: ${a}:3:1 and ${b}:2:1 (it may be written in one file only)`,
      `${b}:4:1: server is declared twice: ${a}:2:1 and ${b}:4:1 (it may be written in one file only)`,
    ]);
  });

  it('requires version in every file', async () => {
    write('a.yaml', 'version: 1');
    const b = write('b.yaml', 'orgs:', '  acme: {}');
    const e = await fails([dir]);
    expect(lines(e)).toEqual([`${b}:1:1: missing required key "version" at the top level (expected "version: 1")`]);
  });
});

describe('loadConfig: environment variables', () => {
  it('substitutes ${NAME} and ${env:NAME}, keeps $${ literal and records secrets', async () => {
    const a = write(
      'a.yaml',
      'version: 1',
      'server:',
      '  url: ${SERVER_URL}',
      'repos:',
      '  acme/widgets:',
      '    labels:',
      '      bug:',
      '        description: "owner: ${env:OWNER}, literal $${NOT_A_VAR} and $5"',
    );
    const loaded = await loadConfig([a], { SERVER_URL: 'https://git.example.com', OWNER: 'alice' });
    expect(loaded.config.server?.url).toBe('https://git.example.com');
    expect(loaded.config.repos?.['acme/widgets']?.labels?.bug?.description).toBe('owner: alice, literal ${NOT_A_VAR} and $5');
    expect([...loaded.secrets]).toEqual([
      ['SERVER_URL', 'https://git.example.com'],
      ['OWNER', 'alice'],
    ]);
    // The file itself is untouched.
    expect(readFileSync(a, 'utf8')).toContain('${SERVER_URL}');
  });

  it('does not interpolate keys, and a value cannot change the YAML structure', async () => {
    const a = write('a.yaml', 'version: 1', 'orgs:', '  acme:', '    labels:', '      "${X}": { description: "${X}" }');
    const loaded = await loadConfig([a], { X: 'a: b\nc: d' });
    expect(loaded.config.orgs?.acme?.labels?.['${X}']?.description).toBe('a: b\nc: d');
  });

  it('reports an unset variable at the scalar, never substituting an empty string', async () => {
    const a = write('a.yaml', 'version: 1', 'server:', '  url: "${SERVER_URL}"', 'policy:', '  protected_users: [root, "${env:ADMIN}"]');
    const e = await fails([a], { SERVER_URL: undefined });
    expect(lines(e)).toEqual([`${a}:3:8: environment variable SERVER_URL is not set`, `${a}:5:27: environment variable ADMIN is not set`]);
  });

  it("refuses forgeform's own variables and the CI runtime's at file:line:col, set or not, naming the variable and why", async () => {
    const a = write(
      'a.yaml',
      'version: 1',
      'repos:',
      '  acme/widgets:',
      '    labels:',
      '      a: { description: "${FORGEFORM_TOKEN}" }',
      '      b: { description: "x ${env:FORGEFORM_PASSWORD} y" }',
      '      c: { description: "${forgeform_username}" }',
      '      d: { description: "${GITHUB_TOKEN}" }',
      '      e: { description: "${GITEA_TOKEN}" }',
      '      f: { description: "${FORGEJO_TOKEN}" }',
      '      g: { description: "${ACTIONS_RUNTIME_TOKEN}" }',
      '      h: { description: "${RUNNER_TEMP}" }',
      '      i: { description: "${INPUT_TOKEN}" }',
      '      j: { description: "${FORGEFORM_ANYTHING}" }',
      '      ok: { description: "${GITHUBX}" }',
    );
    const env = { FORGEFORM_TOKEN: 'tok-123456', FORGEFORM_PASSWORD: 'pw-123456', GITHUB_TOKEN: 'gh-123456', GITHUBX: 'fine' };
    const e = await fails([a], env);
    const got = lines(e);
    expect(got[0]).toBe(
      `${a}:5:25: \${FORGEFORM_TOKEN} cannot be read: FORGEFORM_* variables hold forgeform's own credentials and settings (FORGEFORM_TOKEN, FORGEFORM_PASSWORD, FORGEFORM_USERNAME), and a value that read one would copy a credential to where others can read it; give the value a variable of its own`,
    );
    expect(got.map((l) => l.slice(0, l.indexOf(' variables hold')))).toEqual([
      `${a}:5:25: \${FORGEFORM_TOKEN} cannot be read: FORGEFORM_*`,
      `${a}:6:25: \${FORGEFORM_PASSWORD} cannot be read: FORGEFORM_*`,
      `${a}:7:25: \${forgeform_username} cannot be read: FORGEFORM_*`,
      `${a}:8:25: \${GITHUB_TOKEN} cannot be read: GITHUB_*`,
      `${a}:9:25: \${GITEA_TOKEN} cannot be read: GITEA_*`,
      `${a}:10:25: \${FORGEJO_TOKEN} cannot be read: FORGEJO_*`,
      `${a}:11:25: \${ACTIONS_RUNTIME_TOKEN} cannot be read: ACTIONS_*`,
      `${a}:12:25: \${RUNNER_TEMP} cannot be read: RUNNER_*`,
      `${a}:13:25: \${INPUT_TOKEN} cannot be read: INPUT_*`,
      `${a}:14:25: \${FORGEFORM_ANYTHING} cannot be read: FORGEFORM_*`,
    ]);
    for (const v of Object.values(env).slice(0, 3)) expect(e.message).not.toContain(v);
  });

  it('reports invalid references', async () => {
    const a = write('a.yaml', 'version: 1', 'orgs:', '  acme: { label_template: "${not valid}" }');
    const e = await fails([a]);
    expect(lines(e)).toEqual([`${a}:3:27: invalid reference "\${not valid}": expected \${NAME} or \${env:NAME} (write $\${ for a literal "\${")`]);
  });

  it('never shows a substituted value in an error', async () => {
    const a = write('a.yaml', 'version: 1', 'server:', '  url: ${SECRET}', 'policy:', '  prune: ["${SECRET}"]', '  max_deletes: ${SECRET}');
    const e = await fails([a], { SECRET: 'hunter2' });
    expect(e.message).not.toContain('hunter2');
    expect(lines(e)).toEqual([
      `${a}:3:8: server.url must be an http:// or https:// URL like "https://git.example.com", without a user name or password (give a token with FORGEFORM_TOKEN or --token-file), got (sensitive)`,
      `${a}:5:11: policy.prune[0] must be one of labels, teams, branch_protections, users, hooks, runners, tag_protections, push_mirrors, collaborators, secrets, variables, webhooks, deploy_keys, got (sensitive)`,
      `${a}:6:16: policy.max_deletes must be integer, got string (sensitive)`,
    ]);
  });
});

const example = [
  '# yaml-language-server: $schema=../schemas/forgeform.schema.json',
  'version: 1',
  'server:',
  '  url: https://git.example.com',
  'policy:',
  '  prune: [labels, branch_protections]',
  '  max_deletes: 10',
  '  protected_users: [root]',
  'orgs:',
  '  acme:',
  '    labels:',
  '      kind/bug: { color: d73a4a, description: "Something is not working", exclusive: true }',
  'repos:',
  '  "acme/*":',
  '    branch_protections:',
  '      main: { enable_push: true, push_whitelist_usernames: [alice], required_approvals: 1 }',
];

describe('loadConfig: a valid config', () => {
  it('loads the example and computes a digest', async () => {
    const a = write('forgeform.yaml', ...example);
    const loaded = await loadConfig([a], {});
    expect(loaded.config).toEqual({
      version: 1,
      server: { url: 'https://git.example.com' },
      policy: { prune: ['labels', 'branch_protections'], max_deletes: 10, protected_users: ['root'] },
      orgs: { acme: { labels: { 'kind/bug': { color: 'd73a4a', description: 'Something is not working', exclusive: true } } } },
      repos: { 'acme/*': { branch_protections: { main: { enable_push: true, push_whitelist_usernames: ['alice'], required_approvals: 1 } } } },
    });
    expect(loaded.files).toEqual([a]);
    expect(loaded.secrets.size).toBe(0);
    expect(loaded.digest).toMatch(/^[0-9a-f]{64}$/);
    expect((await loadConfig([a], {})).digest).toBe(loaded.digest);
    write('forgeform.yaml', ...example, '      dev: {}');
    expect((await loadConfig([a], {})).digest).not.toBe(loaded.digest);
  });

  it('locates labels and branch protections in the file that declared them', async () => {
    const a = write('a.yaml', ...example);
    const b = write(
      'b.yaml',
      'version: 1',
      'repos:',
      '  acme/widgets:',
      '    labels:',
      '      bug:',
      '        color: ee0701',
      '    branch_protections:',
      '      "release/*":',
      '        required_approvals: 2',
      '        enable_push: false',
    );
    const loaded = await loadConfig([dir], {});
    expect(loaded.files).toEqual([a, b]);
    expect(loaded.locate(['repos', 'acme/widgets', 'labels', 'bug'], true)).toEqual({ file: b, line: 5, col: 7 });
    expect(loaded.locate(['repos', 'acme/widgets', 'labels', 'bug', 'color'])).toEqual({ file: b, line: 6, col: 16 });
    expect(loaded.locate(['repos', 'acme/widgets', 'branch_protections', 'release/*'], true)).toEqual({ file: b, line: 8, col: 7 });
    expect(loaded.locate(['repos', 'acme/widgets', 'branch_protections', 'release/*', 'enable_push'])).toEqual({ file: b, line: 10, col: 22 });
    expect(loaded.locate(['repos', 'acme/*', 'branch_protections', 'main'], true)).toEqual({ file: a, line: 16, col: 7 });
    expect(loaded.locate(['orgs', 'acme', 'labels', 'kind/bug', 'color'])).toEqual({ file: a, line: 12, col: 26 });
    expect(loaded.locate(['policy', 'prune', 1])).toEqual({ file: a, line: 6, col: 19 });
    expect(loaded.locate(['repos', 'acme/widgets', 'labels', 'feature'])).toBeUndefined();
    expect(loaded.locate(['repos', 'acme/gadgets'])).toBeUndefined();
  });
});

describe('schema', () => {
  it('gives every property a title and a description, and closes every fixed-key map', () => {
    const missing: string[] = [];
    const walk = (node: unknown, where: string) => {
      if (node === null || typeof node !== 'object') return;
      const s = node as Record<string, unknown>;
      if (s.properties) {
        if (s.additionalProperties !== false) missing.push(`${where}: additionalProperties is not false`);
        for (const [name, prop] of Object.entries(s.properties as Record<string, Record<string, unknown>>)) {
          if (typeof prop.title !== 'string' || typeof prop.description !== 'string') missing.push(`${where}.${name}: title/description`);
        }
      }
      // if/then/else/not restate constraints on properties declared beside them: not maps of their own.
      for (const [k, v] of Object.entries(s)) if (!['if', 'then', 'else', 'not'].includes(k)) walk(v, `${where}/${k}`);
    };
    const schema = configSchema();
    walk(schema, '#');
    expect(missing).toEqual([]);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    expect(typeof schema.$id).toBe('string');
  });

  it('covers every field of EditBranchProtectionOption (Gitea\'s and Forgejo\'s apply_to_admins)', () => {
    const defs = configSchema().definitions as Record<string, { properties: Record<string, { type?: string }> }>;
    const props = defs.branch_protection!.properties;
    expect(Object.keys(props)).toHaveLength(38);
    expect(props.apply_to_admins?.type).toBe('boolean');
    expect(props.approvals_whitelist_username?.type).toBe('array');
    expect(props.enable_deletion_allowlist?.type).toBe('boolean');
  });

  it('validates plain data and formats paths', () => {
    expect(validateConfig({ version: 1 })).toEqual([]);
    expect(validateConfig({ version: 1, repos: { 'a/b': { labels: { 'x.y': { color: 1 } } } } })).toEqual([
      { path: ['repos', 'a/b', 'labels', 'x.y', 'color'], atKey: false, message: 'repos."a/b".labels."x.y".color must be string, got number 1 (YAML reads it as a number: quote it as written, e.g. color: "1")' },
    ]);
    expect(formatPath(['repos', 'acme/*', 'branch_protections', 'release 1', 'push_whitelist_usernames', 0])).toBe(
      'repos."acme/*".branch_protections."release 1".push_whitelist_usernames[0]',
    );
  });
});
