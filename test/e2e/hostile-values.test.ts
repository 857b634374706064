/**
 * Issue 17 §1, for every kind: a value that a repository writer, an organisation owner or a config
 * puts in any free-text field (a label's description, a variable's value, a hook's branch filter, a
 * team's description…) cannot forge or hide a line of the plan a reviewer approves, in any output:
 * the text, markdown (pull-request comment) and JSON plans, apply's result lines, a saved plan shown
 * by apply, and export. The fields come from the registry (every kind's free-text fields that the
 * server reads back), so a kind added later is covered without a change here.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { deletions } from '../../src/action/action-run.js';
import { stickyBody } from '../../src/action/comment.js';
import { cutMarkdown, foldIfLong } from '../../src/action/markdown.js';
import { kinds } from '../../src/kinds/index.js';
import { declaredAt, EACH, kindTitles, serverHas, type FieldSpec, type Kind } from '../../src/model/index.js';
import type { Plan } from '../../src/plan/types.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { FLAVOURS, type Flavour } from '../../src/sandbox/flavours/flavour.js';
import { EVERY_KIND, EVERY_KIND_NAMED } from '../support/seeds.js';
import { mapExportedSecrets, world, type CliResult, type World } from './helpers.js';

const ENV = { ORG_TOKEN: 'org-token-value', DEPLOY_KEY: 'deploy-key-value' };

/**
 * An exported file with its secrets mapped, as a user does before planning it: export writes each as a placeholder
 * that refuses to plan (issue 28), here mapped to the variable of ENV of the secret's own name.
 */
function mapSecrets(file: string): string {
  const text = mapped(readFileSync(file, 'utf8'));
  writeFileSync(file, text);
  return text;
}

const mapped = mapExportedSecrets;

/**
 * Lines a reviewer would read as forgeform's own, each behind a line break, with everything else a
 * terminal or a markdown renderer acts on: a fence, an HTML comment, a closing </details>, a table
 * cell, a carriage return and cursor moves that redraw the line above, bidi overrides and zero-width
 * characters that hide or reorder what follows, and a value long enough to push the rest off screen.
 */
const FORGED = [
  '+ user "evil" will be created',
  '  + user "evil" will be created',
  '  - label "bug"',
  '      ~ description: "a" → "b"',
  '```',
  '~~~',
  '<!--',
  '</details>',
  '<details><summary>nothing to see</summary>',
  '| a | b |',
  'cr\r  ~ label "triage"',
  'ansi \u001b[2K\u001b[1A\u001b[31m \u001b[8mconcealed\u001b[0m',
  'bidi \u202egnp.exe \u2066x\u2069 \u200e',
  'zero\u200bwidth\u200d\ufeff\u00ad',
  'Plan: 0 to create, 0 to update, 0 to delete, 0 to rename.',
  'No changes. The server matches the configuration.',
];

/** The hostile value of one field: its own first line (to tell them apart), the forged lines, and a long one. */
function hostile(kind: Kind, field: FieldSpec): string {
  const rule = ruleOf(kind, field);
  const full = (rule.keep ?? ((v: string) => v))([`${kind.name}.${field.name}`, ...FORGED, `long ${'A'.repeat(3000)}`, '- label "last"'].join('\n'));
  const max = Math.min(typeof field.config?.maxLength === 'number' ? field.config.maxLength : Infinity, rule.max ?? Infinity);
  if (full.length <= max) return full;
  // Short fields (a user's pronouns): the worst of it.
  return `x\n  + user "evil"\n\`\`\`\n<!--\r\u001b[2K\u202e|`.slice(0, max);
}

/**
 * Free text: a string the config may set to anything and the server reads back as it is (not a pick
 * from a list, not a pattern, not a secret or a write-only field).
 */
function isFreeText(field: FieldSpec): boolean {
  const c = field.config;
  if (!c || field.sensitive || field.writeOnly || field.answer === undefined) return false;
  return [c.type].flat().includes('string') && !c.enum && !c.pattern && !c.format;
}

/** Free-text fields no writer can put such a value in, by kind.field: each with the reason. */
const CHECKED_BY_SERVER: Record<string, string> = {
  // A repository's own fields are sent only when it is created (repos.X.create): never read back and compared.
  'repo.description': 'create only',
  'repo.default_branch': 'create only',
  'repo.license': 'create only',
  'repo.readme': 'create only',
  'user.email': 'an e-mail address (the plan refuses another value, as the server would)',
  'org.email': 'an e-mail address (the plan refuses another value, as the server would)',
  'repo_settings.default_branch': 'the name of a branch the repository has (the server keeps the old one otherwise)',
  'deploy_key.key': 'an SSH public key (the plan refuses any other text, as the server would); compared by its key material, never by its comment',
};

const URL_VALUE = 'https://evil.example/\u202egnp.exe\u200b/<!--/`/|/</details>/\u2066';

/** What the server accepts in some fields (by kind.field, or by field name whatever the kind): the most hostile value it still takes. */
const SERVER_RULES: Record<string, { max?: number; keep?: (value: string) => string; plain?: string }> = {
  // Gitea's bindings of users, organisations and hooks (modules/structs): MaxSize(n).
  full_name: { max: 100 },
  location: { max: 50 },
  name: { max: 255 },
  'user.description': { max: 255 },
  'org.description': { max: 255 },
  // A website is a URL (ValidUrl): no control character, but bidi and invisible ones, and markdown.
  'user.website': { keep: () => URL_VALUE, plain: 'https://plain.example/' },
  'org.website': { keep: () => URL_VALUE, plain: 'https://plain.example/' },
  // A glob the server compiles: no unterminated character class (an ANSI escape without "[": ESC 7 saves the cursor, ESC M moves it up).
  // eslint-disable-next-line no-control-regex -- the escape sequences are what it rewrites
  branch_filter: { keep: (v) => v.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '\u001b7\u001bM').replace(/\[/g, '(') },
};

function ruleOf(kind: Kind, field: FieldSpec): (typeof SERVER_RULES)[string] {
  return SERVER_RULES[`${kind.name}.${field.name}`] ?? SERVER_RULES[field.name] ?? {};
}

/** Fields that only some objects of a kind have (by field name, whatever the kind): the others' config cannot set them. */
const ONLY_ON: Record<string, (object: Record<string, unknown>) => boolean> = {
  channel: (o) => o.type === 'slack',
  username: (o) => o.type === 'slack',
  icon_url: (o) => o.type === 'slack',
  color: (o) => o.type === 'slack' || !('type' in o),
};

interface Target {
  kind: Kind;
  field: FieldSpec;
  /** The place of one object in the config. */
  at: (string | number)[];
  value: string;
}

/** Whether the seed gives the scope at `path` (repos, "acme/widgets") objects of a section (issues): those a kind reads only by name. */
function seededIn(path: (string | number)[], section: string): boolean {
  const [type, name] = path;
  const scopes = (EVERY_KIND as Record<string, unknown>)[String(type)];
  const entry = Array.isArray(scopes) ? (scopes as { name?: string }[]).find((s) => s.name === name) : undefined;
  return Array.isArray((entry as Record<string, unknown> | undefined)?.[section]) && ((entry as Record<string, unknown[]>)[section]!.length > 0);
}

/** Every object of a kind in the config (the pattern's * taken over the keys or indexes there, or over the objects named for the kinds export leaves out). */
function objectsAt(config: unknown, kind: Kind): (string | number)[][] {
  const walk = (node: unknown, pattern: string[], path: (string | number)[]): (string | number)[][] => {
    if (!pattern.length) return [path];
    const [head, ...rest] = pattern;
    if (head !== EACH) {
      const next = (node as Record<string, unknown> | undefined)?.[head!];
      if (next === undefined && rest.length === 1 && rest[0] === EACH && EVERY_KIND_NAMED[kind.name] && seededIn(path, head!))
        return EVERY_KIND_NAMED[kind.name]!.map((k) => [...path, head!, k.replace(/^#/, '')]);
      return next === undefined ? [] : walk(next, rest, [...path, head!]);
    }
    if (Array.isArray(node)) return node.flatMap((v, i) => walk(v, rest, [...path, i]));
    if (node && typeof node === 'object') return Object.entries(node).flatMap(([k, v]) => walk(v, rest, [...path, k]));
    return [];
  };
  const pattern = declaredAt(kind) as string[];
  const isObject = (path: (string | number)[]) => {
    const v = valueAt(config, path);
    return v === undefined || (typeof v === 'object' && v !== null && !Array.isArray(v));
  };
  const found = walk(config, pattern, []).filter(isObject);
  // A kind of one object per scope (a repository's settings): the section is the object.
  return found.length ? found : walk(config, pattern.slice(0, -1), []).filter(isObject);
}

function valueAt(config: unknown, at: (string | number)[]): unknown {
  return at.reduce<unknown>((n, k) => (n as Record<string | number, unknown> | undefined)?.[k], config);
}

function setAt(config: Record<string, unknown>, at: (string | number)[], field: string, value: unknown): void {
  let node: Record<string | number, unknown> = config;
  for (const k of at) node = (node[k] ??= {}) as Record<string | number, unknown>;
  node[field] = value;
}

const serves = (flavour: Flavour, what: Kind | FieldSpec) => serverHas({ flavour: flavour.fork, version: flavour.version.replace(/\+.*/, '') }, what.availability);

/** The free-text fields of a kind that a release has. */
function textFields(kind: Kind, flavour: Flavour): FieldSpec[] {
  if (!serves(flavour, kind)) return [];
  return kind.fields.filter((f) => isFreeText(f) && !CHECKED_BY_SERVER[`${kind.name}.${f.name}`] && serves(flavour, f));
}

/** The release the sandbox plays: the one with the most of them. */
const FLAVOUR = [...FLAVOURS].sort((a, b) => kinds.flatMap((k) => textFields(k, b)).length - kinds.flatMap((k) => textFields(k, a)).length)[0]!;

function targetsOf(config: unknown): Target[] {
  return kinds.flatMap((kind) =>
    textFields(kind, FLAVOUR)
      .flatMap((field) =>
        objectsAt(config, kind)
          .filter((at) => ONLY_ON[field.name]?.(valueAt(config, at) as Record<string, unknown>) ?? true)
          .map((at) => ({ kind, field, at, value: hostile(kind, field) })),
      ),
  );
}

function withValues(base: unknown, targets: Target[], value: (t: Target) => string): string {
  const config = structuredClone(base) as Record<string, unknown>;
  for (const t of targets) setAt(config, t.at, t.field.name, value(t));
  return stringify(config, { lineWidth: 0 });
}

// Only forgeform's own line breaks; no other control, bidi or invisible character (src/inert.ts).
// eslint-disable-next-line no-control-regex, no-misleading-character-class -- finding these characters is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]/;

function expectNoRaw(r: CliResult, what: string): void {
  for (const [stream, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const)
    for (const l of text.split('\n')) expect(RAW.test(l), `${what} ${stream}: ${JSON.stringify(l.slice(0, 200))}`).toBe(false);
}

/** A change's headline in the text plan ("  + label …", "  -/+ push mirror …"). */
const TEXT_HEADLINE = /^ {2}(\+|~|-|>|-\/\+) \S/;
/** A field line in the text plan ("      + description = …", "      ~ description:"). */
const TEXT_FIELD = /^ {6}[+~] \S/;

/** What a reviewer reads in a text plan: as many headlines as changes, and every line one of the plan's own forms. */
function expectTextPlan(stdout: string, changes: number, what: string): void {
  const lines = stdout.split('\n');
  expect(lines.filter((l) => TEXT_HEADLINE.test(l)), what).toHaveLength(changes);
  const own = [/^$/, /^Server: /, /^Warning: /, /^Differs: /, /^Not planned: /, /^forgeform will perform the following actions:$/, /^ {2}# \S/, TEXT_HEADLINE, TEXT_FIELD, /^ {6}with \S/, /^ {6}# /, /^ {10}\S/, /^Unsafe: /, /^Policy: /, /^Plan: \d+ to create, \d+ to update, \d+ to delete, \d+ to rename(, \d+ to replace)?\.$/];
  for (const l of lines) expect(own.some((re) => re.test(l)), `${what}: a line of no form of the plan: ${JSON.stringify(l.slice(0, 200))}`).toBe(true);
  expect(lines.filter((l) => l.startsWith('Plan: ')), what).toHaveLength(1);
}

/** The markdown plan: one fenced block inside one <details>, nothing closing either early, and outside them only escaped text. */
function expectMarkdownPlan(md: string, changes: number, what: string): void {
  const lines = md.split('\n');
  const open = lines.findIndex((l) => /^`{3,}diff$/.test(l));
  expect(open, what).toBeGreaterThan(0);
  const fence = /^(`+)/.exec(lines[open]!)![1]!;
  // CommonMark: a fence closes at a line of at least as many backticks (up to 3 spaces before, spaces after).
  const closes = (l: string) => new RegExp(`^ {0,3}\`{${fence.length},}\\s*$`).test(l);
  const close = lines.findIndex((l, i) => i > open && closes(l));
  expect(close, what).toBeGreaterThan(open);
  expect(lines.slice(close + 1).filter(closes), what).toEqual([]);
  const inside = lines.slice(open + 1, close);
  expect(inside.filter((l) => /^(\+|~|-|>|-\/\+) \S/.test(l)), what).toHaveLength(changes);
  // A line inside that a fence of another kind could close (~~~ does not close a backtick fence, but say so if it starts one).
  const outside = [...lines.slice(0, open), ...lines.slice(close + 1)];
  // Markdown escapes a "<" with a backslash: only the plan's own tags are unescaped.
  expect(outside.filter((l) => /(^|[^\\])<details/.test(l)), what).toEqual(['<details open><summary>Changes</summary>']);
  expect(outside.filter((l) => /(^|[^\\])<\/details>/.test(l)), what).toEqual(['</details>']);
  for (const l of outside.filter((l) => !/^<\/?details/.test(l))) {
    expect(/(^|[^\\])[<`|&]/.test(l), `${what}: unescaped markdown outside the block: ${JSON.stringify(l.slice(0, 200))}`).toBe(false);
    expect(/^ {0,3}(`{3,}|~{3,})/.test(l), `${what}: a fence outside the block: ${JSON.stringify(l.slice(0, 200))}`).toBe(false);
  }
}

interface JsonPlan {
  changes: { kind: string; key: string; action: string; fields: { path: string; before?: unknown; after?: unknown }[] }[];
}

/** Every hostile value in the JSON plan, exactly as written, on the side it was on. */
function expectRoundTrip(plan: JsonPlan, targets: Target[], side: 'before' | 'after', what: string): void {
  for (const t of targets) {
    const values = plan.changes.filter((c) => c.kind === t.kind.name).flatMap((c) => c.fields.filter((f) => f.path === t.field.name).map((f) => f[side]));
    expect(values, `${what}: ${t.kind.name}.${t.field.name} at ${t.at.join('.')}`).toContain(t.value);
  }
}

/** The SGR codes picocolors writes for the colours and styles the renderers use. */
const PICOCOLORS = ['1', '2', '22', '31', '32', '33', '35', '36', '39'];

async function planAll(w: World, file: string, targets: Target[], side: 'before' | 'after', what: string, out?: string): Promise<JsonPlan> {
  const json = await w.cli(['plan', '-c', file, '--format', 'json', ...(out ? ['--out', out] : [])], ENV);
  expect(json.code, json.stderr).toBe(0);
  expectNoRaw(json, `${what} (json)`);
  const plan = JSON.parse(json.stdout) as JsonPlan;
  expectRoundTrip(plan, targets, side, what);
  const text = await w.cli(['plan', '-c', file], ENV);
  expect(text.code, text.stderr).toBe(0);
  expectNoRaw(text, `${what} (text)`);
  expectTextPlan(text.stdout, plan.changes.length, `${what} (text)`);
  // On a terminal: colours are forgeform's own (picocolors' codes), never a value's (SGR 8 would conceal what follows).
  const coloured = await w.cli(['plan', '-c', file], { ...ENV, NO_COLOR: '', FORCE_COLOR: '1' });
  expect(coloured.code, coloured.stderr).toBe(0);
  // eslint-disable-next-line no-control-regex -- the escape sequences are what it looks for
  const sgr = [...coloured.stdout.matchAll(/\u001b\[([0-9;]*)m/g)].map((m) => m[1]);
  expect(sgr.length, `${what} (colours)`).toBeGreaterThan(0);
  expect([...new Set(sgr)].filter((code) => !PICOCOLORS.includes(code!)), `${what} (colours)`).toEqual([]);
  // eslint-disable-next-line no-control-regex -- the escape sequences are what it removes
  const uncoloured = coloured.stdout.replace(/\u001b\[[0-9;]*m/g, '');
  expectTextPlan(uncoloured, plan.changes.length, `${what} (colours)`);
  expectNoRaw({ ...coloured, stdout: uncoloured }, `${what} (colours)`);
  const md = await w.cli(['plan', '-c', file, '--format', 'markdown'], ENV);
  expect(md.code, md.stderr).toBe(0);
  expectNoRaw(md, `${what} (markdown)`);
  expectMarkdownPlan(md.stdout, plan.changes.length, `${what} (markdown)`);
  return plan;
}

/** apply's result lines: one per change, each a ✓ line of its change, the summary, nothing else. */
function expectApplied(r: CliResult, changes: number, what: string): void {
  expect(r.code, r.stdout + r.stderr).toBe(0);
  expectNoRaw(r, what);
  const results = r.stdout.split('\n').filter((l) => /^[✓✗○] /.test(l));
  expect(results, what).toHaveLength(changes);
  expect(r.stdout).toMatch(/^Apply complete! /m);
}

let w: World | undefined;
afterEach(async () => {
  await w?.sandbox.close();
  w = undefined;
});

describe('hostile values in every free-text field of every kind', () => {
  it('cannot forge or hide a line of the plan, of apply or of a saved plan, and round-trip exactly through JSON and export', async () => {
    w = await world(EVERY_KIND, { flavour: FLAVOUR.name });
    const exported = `${w.dir}/exported.yaml`;
    expect((await w.cli(['export', '-o', exported])).code).toBe(0);
    const base = parse(mapSecrets(exported)) as unknown;
    const targets = targetsOf(base);
    // Every kind with free text has objects to carry it (a kind added later seeds EVERY_KIND).
    const withText = kinds.filter((k) => textFields(k, FLAVOUR).length);
    expect(withText.filter((k) => !targets.some((t) => t.kind === k)).map((k) => k.name)).toEqual([]);

    // A config that writes them: the config's values are hostile too.
    const hostileFile = w.config(withValues(base, targets, (t) => t.value), 'hostile.yaml');
    const planned = await planAll(w, hostileFile, targets, 'after', 'the config writes hostile values');
    const applied = await w.cli(['apply', '-c', hostileFile, '--yes'], ENV);
    expectApplied(applied, planned.changes.length, 'apply of hostile values');

    // The server now holds them: export writes them exactly, and its file plans no change.
    const again = `${w.dir}/again.yaml`;
    const exportRun = await w.cli(['export', '-o', again]);
    expect(exportRun.code, exportRun.stderr).toBe(0);
    expectNoRaw(exportRun, 'export');
    const reexported = parse(mapSecrets(again)) as unknown;
    for (const t of targets) {
      const obj = valueAt(reexported, t.at) as Record<string, unknown> | undefined;
      // Export writes what the kind exports (a user's login_name only with an authentication source): that exactly.
      if (t.kind.toConfig && obj && t.field.name in obj) expect(obj[t.field.name], `export of ${t.kind.name}.${t.field.name}`).toBe(t.value);
    }
    const stdoutExport = await w.cli(['export']);
    expectNoRaw(stdoutExport, 'export to stdout');
    expect(parse(mapped(stdoutExport.stdout)), 'export to stdout parses to what export -o wrote').toEqual(reexported);
    const none = await w.cli(['plan', '-c', again, '--detailed-exitcode'], ENV);
    expect(none.code, none.stdout + none.stderr).toBe(0);

    // A config that changes them back: the server's values are hostile, shown as what is replaced.
    const plainFile = w.config(withValues(base, targets, (t) => ruleOf(t.kind, t.field).plain ?? 'plain'), 'plain.yaml');
    const saved = `${w.dir}/plan.json`;
    const back = await planAll(w, plainFile, targets, 'before', 'the server holds hostile values', saved);
    expectComment(JSON.parse(readFileSync(saved, 'utf8')) as Plan, 'the comment of a plan replacing hostile values');
    const shown = await w.cli(['apply', saved], ENV);
    expectApplied(shown, back.changes.length, 'apply of a saved plan');
    // apply shows the saved plan first, as plan does.
    expectTextPlan(shown.stdout.slice(0, shown.stdout.search(/^[✓✗○] /m)), back.changes.length, 'the saved plan shown by apply');
  });
});

/** A line that starts like a change of the plan (a headline or a field line) and is one of the forged ones. */
const FORGED_LINE = /^ {0,6}(\+|~|-|>|-\/\+) +(user "evil"|label "bug"|description: "a")/;

function expectNoForgedLine(r: CliResult, what: string): void {
  for (const [stream, text] of [['stdout', r.stdout], ['stderr', r.stderr]] as const)
    for (const l of text.split('\n')) expect(FORGED_LINE.test(l), `${what} ${stream}: ${JSON.stringify(l.slice(0, 200))}`).toBe(false);
}

describe('errors and refusals that quote a hostile name or value', () => {
  it('say it on their one line: a config error, an unsafe plan and its refusal by apply', async () => {
    w = await world(EVERY_KIND, { flavour: FLAVOUR.name });
    const exported = `${w.dir}/exported.yaml`;
    expect((await w.cli(['export', '-o', exported])).code).toBe(0);
    const base = parse(mapSecrets(exported)) as Record<string, unknown>;
    const value = ['x', ...FORGED].join('\n');

    // A value the plan refuses (an e-mail address the server would refuse): its error is one line.
    const badEmail = structuredClone(base) as { users: Record<string, Record<string, unknown>> };
    badEmail.users.alice!.email = value;
    const refused = await w.cli(['plan', '-c', w.config(stringify(badEmail, { lineWidth: 0 }), 'email.yaml')], ENV);
    expect(refused.code, refused.stderr).toBe(1);
    expectNoRaw(refused, 'config error');
    expectNoForgedLine(refused, 'config error');
    expect(refused.stderr.trimEnd().split('\n').filter((l) => !l.startsWith('Reading the server: '))).toEqual([expect.stringMatching(/email\.yaml:\d+:\d+: user "alice": email: "x\\n\+ user \\"evil\\" will be created\\n.* is not an e-mail address/), 'Planning failed: nothing was changed.']);

    // A label with that name, put on an issue by a repository writer, and a config that prunes it: the plan is
    // unsafe (the label carries an issue), and says so on one line; apply refuses it on one line.
    const label = await w.api<{ id: number }>('POST', '/repos/acme/widgets/labels', { name: value.slice(0, 200), color: '#00aabb' });
    expect(label.status).toBe(201);
    expect((await w.api('POST', '/repos/acme/widgets/issues/1/labels', { labels: [label.body.id] })).status).toBe(200);
    const pruning = structuredClone(base);
    pruning.policy = { prune: ['labels'], max_deletes: 100, max_delete_fraction: 1 };
    const pruneFile = w.config(stringify(pruning, { lineWidth: 0 }), 'prune.yaml');
    const unsafe = await w.cli(['plan', '-c', pruneFile], ENV);
    expect(unsafe.code, unsafe.stderr).toBe(3);
    expectNoRaw(unsafe, 'unsafe plan');
    expectNoForgedLine(unsafe, 'unsafe plan');
    expectTextPlan(unsafe.stdout, 1, 'unsafe plan');
    expect(unsafe.stderr.split('\n').filter((l) => l.startsWith('This plan is unsafe: label "x\\n+ user \\"evil\\"'))).toHaveLength(1);
    const md = await w.cli(['plan', '-c', pruneFile, '--format', 'markdown'], ENV);
    expectNoRaw(md, 'unsafe plan (markdown)');
    expectMarkdownPlan(md.stdout, 1, 'unsafe plan (markdown)');
    const apply = await w.cli(['apply', '-c', pruneFile, '--yes'], ENV);
    expect(apply.code, apply.stderr).toBe(3);
    expectNoRaw(apply, 'apply of an unsafe plan');
    expectNoForgedLine(apply, 'apply of an unsafe plan');
    expect(apply.stderr.split('\n').filter((l) => l.startsWith('Refusing an unsafe plan: label "x\\n+ user \\"evil\\"'))).toHaveLength(1);
  });
});

const SCHEMA = JSON.parse(readFileSync(new URL('../../schemas/forgeform.schema.json', import.meta.url), 'utf8')) as {
  properties: Record<string, { propertyNames?: { pattern?: string } }>;
  definitions: Record<string, { properties?: Record<string, { propertyNames?: { pattern?: string } }> }>;
};

/** The schema of a kind's section, for kinds whose objects are a map by name in a scope's section. */
function sectionSchema(kind: Kind): { propertyNames?: { pattern?: string } } | undefined {
  const at = declaredAt(kind);
  if (at.at(-1) !== EACH) return undefined;
  return kind.scopeType === 'server' ? SCHEMA.properties[kind.configKey] : SCHEMA.definitions[kind.scopeType]?.properties?.[kind.configKey];
}

/** A second object of these kinds must differ from the first in more than its name: the server refuses one deploy key under two titles. */
const DISTINCT: Record<string, (o: unknown) => unknown> = {
  deploy_key: (o) => ({ ...(o as object), key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIAPCcQR4sye8FaUXkhu349REFJ9Suv034AM4UhA6C3mm' }),
};

/**
 * Kinds whose objects a config names freely (a map key the schema puts no pattern on: labels, rules of
 * branch and tag protections) and that forgeform creates and deletes.
 */
function freelyNamed(config: unknown): { kind: Kind; at: (string | number)[] }[] {
  return kinds
    .filter((k) => serves(FLAVOUR, k) && k.toConfig && k.actions.includes('create') && k.actions.includes('delete'))
    .filter((k) => {
      const s = sectionSchema(k);
      return s?.propertyNames !== undefined && s.propertyNames.pattern === undefined;
    })
    .flatMap((kind) => {
      const first = objectsAt(config, kind).find((at) => typeof at.at(-1) === 'string');
      return first ? [{ kind, at: first }] : [];
    });
}

describe('hostile names of every kind a config names freely', () => {
  it('created, exported and pruned: one headline per change, nothing raw, the names exactly in JSON and export', async () => {
    w = await world(EVERY_KIND, { flavour: FLAVOUR.name });
    const exported = `${w.dir}/exported.yaml`;
    expect((await w.cli(['export', '-o', exported])).code).toBe(0);
    const base = parse(mapSecrets(exported)) as Record<string, unknown>;
    const named = freelyNamed(base);
    expect(named.length).toBeGreaterThan(0);
    // Short (servers limit names), and a glob the server compiles (tag protection patterns): no "[".
    const nameOf = (kind: Kind) => `${kind.name}\n  + user "evil"\n\`\`\`\r\u001b7\u202e<!--|\u200b</details>`;
    const withNames = structuredClone(base);
    for (const { kind, at } of named) {
      const section = valueAt(withNames, at.slice(0, -1)) as Record<string, unknown>;
      section[nameOf(kind)] = (DISTINCT[kind.name] ?? structuredClone)(section[at.at(-1) as string]);
    }
    const file = w.config(stringify(withNames, { lineWidth: 0 }), 'names.yaml');
    const created = await planAll(w, file, [], 'after', 'hostile names created');
    expect(created.changes.map((c) => c.key).sort()).toEqual(named.map(({ kind }) => nameOf(kind)).sort());
    const apply = await w.cli(['apply', '-c', file, '--yes'], ENV);
    expectApplied(apply, named.length, 'apply of hostile names');

    const again = `${w.dir}/again.yaml`;
    const exportRun = await w.cli(['export', '-o', again]);
    expect(exportRun.code, exportRun.stderr).toBe(0);
    expectNoRaw(exportRun, 'export of hostile names');
    const reexported = parse(mapSecrets(again)) as unknown;
    for (const { kind, at } of named) expect(Object.keys(valueAt(reexported, at.slice(0, -1)) as object), kind.name).toContain(nameOf(kind));
    expect((await w.cli(['plan', '-c', again, '--detailed-exitcode'], ENV)).code).toBe(0);

    // The names as the server has them, pruned: a saved plan of their deletion, shown by apply.
    const pruning = structuredClone(base);
    pruning.policy = { prune: [...new Set(named.map(({ kind }) => kind.pruneKey))], max_deletes: 100, max_delete_fraction: 1 };
    const pruneFile = w.config(stringify(pruning, { lineWidth: 0 }), 'prune.yaml');
    const saved = `${w.dir}/plan.json`;
    const deleting = await planAll(w, pruneFile, [], 'before', 'hostile names pruned', saved);
    expectComment(JSON.parse(readFileSync(saved, 'utf8')) as Plan, 'the comment of a plan deleting hostile names');
    expect(deleting.changes.map((c) => [c.action, c.key]).sort()).toEqual(named.map(({ kind }) => ['delete', nameOf(kind)]).sort());
    const shown = await w.cli(['apply', saved], ENV);
    expectApplied(shown, named.length, 'apply of a saved plan deleting hostile names');
    expectNoForgedLine(shown, 'apply of a saved plan deleting hostile names');
  });
});

/** Markdown with its code spans taken out (a run of n backticks up to the next run of exactly n), as CommonMark reads them. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(?<!`)(`+)(?!`)[\s\S]*?(?<!`)\1(?!`)/g, '');
}

/**
 * The pull-request comment the Action writes from a JSON plan (its list of deletions, the plan, cut to
 * what a forge accepts): one fenced block, the details balanced, no HTML comment or tag of a name's, cut or not.
 */
function expectComment(plan: Plan, what: string): void {
  const md = foldIfLong(`${deletions(plan)}${renderPlanMarkdown(plan, kindTitles(kinds))}`);
  for (const [body, label] of [[stickyBody('forgeform', [], md), 'whole'], [stickyBody('forgeform', [], cutMarkdown(md, Math.floor(md.length / 2), 'The rest is elsewhere.')), 'cut']] as const) {
    const lines = body.split('\n');
    const open = lines.findIndex((l) => /^`{3,}diff$/.test(l));
    // A cut before the block leaves no block.
    const fence = open < 0 ? undefined : /^(`+)/.exec(lines[open]!)![1]!;
    const closes = (l: string) => fence !== undefined && new RegExp(`^ {0,3}\`{${fence.length},}\\s*$`).test(l);
    const close = open < 0 ? lines.length : lines.findIndex((l, i) => i > open && closes(l));
    expect(close, `${what} (${label})`).toBeGreaterThan(open);
    const outside = (open < 0 ? lines.slice(1) : [...lines.slice(1, open), ...lines.slice(close + 1)]).map(withoutCodeSpans);
    const details = open < 0 ? 0 : 1;
    expect(outside.filter((l) => /(^|[^\\])<!--/.test(l)), `${what} (${label})`).toEqual([]);
    expect(outside.filter((l) => /(^|[^\\])<details/.test(l)).length, `${what} (${label})`).toBe(details);
    expect(outside.filter((l) => /(^|[^\\])<\/details>/.test(l)).length, `${what} (${label})`).toBe(details);
    expect(outside.filter((l) => /^ {0,3}(`{3,}|~{3,})/.test(l)), `${what} (${label})`).toEqual([]);
  }
}
