import { describe, expect, it } from 'vitest';
import { cutMarkdown } from '../../src/action/markdown.js';
import type { Change, Plan } from '../../src/model/index.js';
import { colors } from '../../src/render/color.js';
import { htmlText, inert, inertOutput, mdCode, mdCodeBlock, mdText, quote } from '../../src/render/inert.js';
import { renderPlanMarkdown } from '../../src/render/markdown.js';
import { renderPlanText, renderResultLine } from '../../src/render/text.js';

// Issue 17 §1: names a repository writer (or a config) chooses, each holding what could redraw a
// terminal or rewrite a pull-request comment.
const HOSTILE = [
  '\u001b[1A\u001b[2K\r  ~ label "triage" (cosmetic)',
  'line\nbreak  + label "forged"',
  'nul\u0000byte',
  'tab\there',
  'bell\u0007 del\u007f c1\u0085\u009b31m',
  'bidi \u202egnp.exe\u202c \u2066iso\u2069 \u200bzero\u200f \ufeffbom \u2028sep',
  '```\n**forgeform: no changes**\n<!--',
  '`````````',
  '</details><details><summary>nothing</summary>',
  '<!-- hidden',
  '**forgeform: no changes**',
  '[approve](http://evil.example/)',
  'a | b | c',
  '# heading',
  '-->',
];

/** Every character that must never reach an output raw (only forgeform's own line breaks may). */
// eslint-disable-next-line no-control-regex -- finding these characters is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

function plan(names: string[], version = '1.25.4'): Plan {
  const changes: Change[] = [];
  names.forEach((n, i) => {
    const base = { kind: 'repo_label', scope: 'repo:acme/widgets', precondition: { digest: null }, depends_on: [], ops: [] };
    changes.push({ ...base, id: `c${i}`, key: n, action: 'create', fields: [{ path: 'color', after: 'ee0701' }, { path: 'description', after: n }] });
    changes.push({ ...base, id: `u${i}`, key: `${n}-u`, action: 'update', fields: [{ path: 'description', before: n, after: `${n} again` }], notes: [`carried by 1 issue named ${n}`] });
    changes.push({ ...base, id: `r${i}`, key: `${n}-new`, from: n, action: 'rename', fields: [{ path: 'name', before: n, after: `${n}-new` }] });
    changes.push({ ...base, id: `d${i}`, key: `${n}-d`, action: 'delete', fields: [] });
  });
  return {
    format_version: 1,
    forgeform_version: '0.1.0',
    created_at: '2026-01-01T00:00:00Z',
    server: { url: 'https://git.example.com', flavour: 'gitea', version },
    config_digest: 'x',
    summary: { create: names.length, update: names.length, delete: names.length, rename: names.length, replace: 0 },
    policy: { prune: ['labels'], max_deletes: 10, max_delete_fraction: 0.3, protected_users: names.slice(0, 2), purge_users: false },
    unsafe: names.map((n) => `label ${n} is carried by 1 issue`),
    warnings: names.map((n) => `label ${n} exists twice`),
    drift: names.map((n) => `label ${n} differs`),
    changes,
  };
}

/** Names of the same shape without anything hostile in them: what the output's structure must be. */
const benign = HOSTILE.map((n, i) => `name${i}${'\nmore'.repeat(n.split('\n').length - 1)}`);

describe('hostile names are inert in the text plan', () => {
  const text = renderPlanText(plan(HOSTILE, '1.25.4\u001b[2J\r'), colors(false));
  const lines = text.split('\n');

  it('has no raw control, bidi or invisible character anywhere', () => {
    for (const [i, l] of lines.entries()) expect(RAW.test(l), `line ${i}: ${JSON.stringify(l)}`).toBe(false);
  });

  it('has exactly the lines a plan of harmless names has: each change, field, note and warning is one line', () => {
    expect(lines).toHaveLength(renderPlanText(plan(benign), colors(false)).split('\n').length);
    HOSTILE.forEach((n) => {
      for (const line of [`  + repo_label ${quote(n)}`, `  - repo_label ${quote(`${n}-d`)}`, `  > repo_label ${quote(n)} → ${quote(`${n}-new`)}`, ...(n.includes('\n') ? [] : [`      + description = ${quote(n)}`])])
        expect(lines.filter((l) => l === line), line).toHaveLength(1);
    });
  });

  it('shows a value of several lines as a diff, one inert line per line of the value', () => {
    expect(text).toContain('      + description:\n          @@ -0,0 +1,2 @@\n          +line\n          +break  + label "forged"\n');
  });

  it('shows each escape visibly, and the server version too', () => {
    expect(text).toContain('"\\u001b[1A\\u001b[2K\\r  ~ label \\"triage\\" (cosmetic)"');
    expect(text).toContain('"bidi \\u202egnp.exe\\u202c \\u2066iso\\u2069 \\u200bzero\\u200f \\ufeffbom \\u2028sep"');
    expect(text).toContain('"nul\\u0000byte"');
    expect(text).toContain('"tab\\there"');
    expect(text).toContain('"bell\\u0007 del\\u007f c1\\u0085\\u009b31m"');
    expect(lines[0]).toBe('Server: Gitea 1.25.4\\u001b[2J\\r at https://git.example.com');
    expect(text).toContain('Warning: label \\u001b[1A\\u001b[2K\\r  ~ label "triage" (cosmetic) exists twice');
  });

  it('a result line quoting a server answer stays one inert line', () => {
    const change = plan(HOSTILE).changes[0]!;
    const line = renderResultLine({ change, outcome: 'failed', error: `422: ${HOSTILE[1]} ${HOSTILE[0]}` }, colors(false));
    expect(line.split('\n')).toHaveLength(1);
    expect(RAW.test(line)).toBe(false);
  });
});

/**
 * The markdown as a forge parses it, as far as escaping matters: the fenced block (opened by a line of
 * 3+ backticks, closed by the first line of only backticks at least as long), and the lines outside it.
 */
function parse(md: string): { outside: string[]; blocks: string[][] } {
  const outside: string[] = [];
  const blocks: string[][] = [];
  let fence = '';
  for (const line of md.split('\n')) {
    const f = /^ {0,3}(`{3,})/.exec(line)?.[1];
    if (!fence && f) {
      fence = f;
      blocks.push([]);
    } else if (fence && f && f.length >= fence.length && line.trim() === f) fence = '';
    else if (fence) blocks[blocks.length - 1]!.push(line);
    else outside.push(line);
  }
  expect(fence, 'the block is closed').toBe('');
  return { outside, blocks };
}

describe('hostile names are inert in the markdown plan', () => {
  const md = renderPlanMarkdown(plan(HOSTILE, '1.25.4 `x` <!--'));
  const parsed = parse(md);
  const reference = parse(renderPlanMarkdown(plan(benign)));

  it('has one diff block holding every change line, and outside it exactly the skeleton of a harmless plan', () => {
    expect(parsed.blocks).toHaveLength(1);
    expect(parsed.blocks[0]).toHaveLength(reference.blocks[0]!.length);
    expect(parsed.outside).toHaveLength(reference.outside.length);
    // The same skeleton: the lines forgeform writes itself are there, in the same places.
    parsed.outside.forEach((l, i) => {
      const r = reference.outside[i]!;
      if (!/name\d/.test(r) && !r.startsWith('Server:')) expect(l).toBe(r);
    });
    for (const l of md.split('\n')) expect(RAW.test(l), JSON.stringify(l)).toBe(false);
  });

  it('lets no name open or close HTML, a comment, a link, emphasis or a code span outside the block', () => {
    const values = parsed.outside.filter((l) => l.startsWith('> **') || l.startsWith('Server:') || l.startsWith('Policy:'));
    expect(values.length).toBeGreaterThan(HOSTILE.length * 3);
    for (const l of values) {
      const text = l.replace(/^> \*\*(Unsafe|Differs|Warning):\*\* /, '');
      // Every markdown or HTML metacharacter is escaped with a backslash.
      expect(text.replace(/\\./g, ''), l).not.toMatch(/[`*_[\]<>|~&]/);
    }
    const outside = parsed.outside.join('\n');
    expect(outside.match(/(?<!\\)<details/g)).toHaveLength(1);
    expect(outside.match(/(?<!\\)<\/details>/g)).toHaveLength(1);
    expect(outside).not.toMatch(/(?<!\\)<!--/);
    expect(outside).not.toMatch(/(?<!\\)\[[^\]]*(?<!\\)\]\(/);
  });

  it('keeps the diff block closed when the comment is cut', () => {
    const cut = cutMarkdown(md, 3000, 'The rest is elsewhere.');
    const p = parse(cut);
    expect(p.blocks).toHaveLength(1);
    expect(cut).toContain('</details>');
  });
});

describe('the escaping helpers', () => {
  it('inert escapes every unsafe character, keeping the rest', () => {
    expect(inert('a\u001b[1Ab\rc\nd\u0000e\u202ef\u2066g\u200bh\ufeffi\u007fj\u0085k')).toBe('a\\u001b[1Ab\\rc\\nd\\u0000e\\u202ef\\u2066g\\u200bh\\ufeffi\\u007fj\\u0085k');
    expect(inert('plain ünïcödé — 日本語 ✓ 🎉')).toBe('plain ünïcödé — 日本語 ✓ 🎉');
  });

  it('inertOutput keeps forgeform’s colours and line breaks, and escapes every other escape sequence', () => {
    const c = colors(true);
    const out = `${c.green('+ ok')}\nname \u001b[8mhidden\u001b[0m \u001b[1A`;
    expect(inertOutput(out, true)).toBe(`${c.green('+ ok')}\nname \u001b[8mhidden\u001b[0m \\u001b[1A`);
    expect(inertOutput(out, false)).not.toContain('\u001b');
  });

  it('mdCode and mdCodeBlock choose a fence no content can close', () => {
    expect(mdCode('a``b')).toBe('```a``b```');
    expect(mdCode('`x`')).toBe('`` `x` ``');
    expect(mdCodeBlock(['````', 'x'], 'diff')).toEqual(['`````diff', '````', 'x', '`````']);
    expect(htmlText('</summary><!-- "x" & \u001b')).toBe('&lt;/summary&gt;&lt;!-- &quot;x&quot; &amp; \\u001b');
    expect(mdText('**bold** [l](u) <b> a|b ~~s~~ `c` &amp; @here $x$')).toBe('\\*\\*bold\\*\\* \\[l\\](u) \\<b\\> a\\|b \\~\\~s\\~\\~ \\`c\\` \\&amp; \\@here \\$x\\$');
  });
});
