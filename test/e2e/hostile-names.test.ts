import { afterEach, describe, expect, it } from 'vitest';
import { world, type World } from './helpers.js';

// Issue 17 §1: label names a repository writer puts on the server, each trying to redraw the terminal
// or rewrite the pull-request comment, as forgeform plan prints them.
const HOSTILE = [
  '\u001b[1A\u001b[2K\r  ~ label "triage" (cosmetic)',
  'nul\u0000 bell\u0007 del\u007f c1\u0085',
  'bidi \u202egnp.exe \u2066x\u2069 \u200bzw \ufeffbom',
  '```\n**forgeform: no changes**\n<!--',
  '`````',
  '</details><details><summary>nothing</summary>',
  '<!-- hidden',
  '**forgeform: no changes**',
  '[approve](http://evil.example/)',
  'a | b',
];

const seed = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', labels: [{ name: 'keep', color: '00aa00' }, ...HOSTILE.map((name, i) => ({ name, color: '11111' + (i % 10), description: name }))] }],
};

// Only forgeform's own line breaks; no other control, bidi or invisible character.
// eslint-disable-next-line no-control-regex -- finding these characters is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

let w: World;
afterEach(async () => w?.sandbox.close());

describe('hostile names on the server are printed inert', () => {
  it('text, markdown and json plans of their deletion: one line per change, nothing raw, the block never closed by a name', async () => {
    w = await world(seed);
    const file = w.config('version: 1\npolicy: { prune: [labels], max_deletes: 100, max_delete_fraction: 1 }\nrepos:\n  acme/widgets:\n    labels:\n      keep: { color: 00aa00, description: "" }\n');

    const text = await w.cli(['plan', '-c', file]);
    expect(text.code, text.stderr).toBe(0);
    for (const out of [text.stdout, text.stderr]) for (const l of out.split('\n')) expect(RAW.test(l), JSON.stringify(l)).toBe(false);
    const deletions = text.stdout.split('\n').filter((l) => l.startsWith('  - label '));
    expect(deletions).toHaveLength(HOSTILE.length);
    for (const name of HOSTILE) expect(deletions).toContain(`  - label ${JSON.stringify(name).replace(/[\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}`);
    // Apart from the changes and their notes, the plan has its usual lines only.
    const lines = text.stdout.split('\n');
    expect(lines.filter((l) => l.startsWith('      # '))).toHaveLength(HOSTILE.length);
    // A name with characters that make it look like another (here the four with controls, bidi or invisible ones)
    // gets one warning line (issue 28 item 6), and the warnings a blank line after them.
    const lookAlike = lines.filter((l) => /^Warning: label ".*" in \S+: the name holds characters that look like others/.test(l));
    expect(lookAlike).toHaveLength(4);
    expect(lines).toHaveLength(1 + 1 + 2 + 1 + HOSTILE.length * 2 + 1 + 2 + 1 + lookAlike.length + 1);
    expect(lines.at(-2)).toBe(`Plan: 0 to create, 0 to update, ${HOSTILE.length} to delete, 0 to rename.`);
    expect(text.stdout).not.toContain('No changes');

    const md = await w.cli(['plan', '-c', file, '--format', 'markdown']);
    expect(md.code, md.stderr).toBe(0);
    for (const l of md.stdout.split('\n')) expect(RAW.test(l), JSON.stringify(l)).toBe(false);
    const mdLines = md.stdout.split('\n');
    const open = mdLines.findIndex((l) => /^`{3,}diff$/.test(l));
    const fence = /^(`+)/.exec(mdLines[open]!)![1]!;
    expect(fence.length).toBeGreaterThan(5);
    const close = mdLines.findIndex((l, i) => i > open && /^`+$/.test(l.trim()) && l.trim().length >= fence.length);
    // Inside the block: the scope, each deletion and its note; nothing else closes it.
    expect(mdLines.slice(open + 1, close).filter((l) => l.startsWith('- label '))).toHaveLength(HOSTILE.length);
    expect(close - open - 1).toBe(1 + HOSTILE.length * 2);
    // After the block: its closing tag, then only the warnings of the names that look like others (one line each).
    const after = mdLines.slice(close + 1).join('\n');
    expect(after.startsWith('\n</details>\n')).toBe(true);
    expect(after.slice('\n</details>\n'.length).split('\n').filter((l) => l !== '')).toEqual(Array.from({ length: 4 }, () => expect.stringMatching(/^> \*\*Warning:\*\* label .* the name holds characters that look like others/)));
    const before = mdLines.slice(0, open).join('\n');
    expect(before).not.toContain('<!--');
    expect(before.match(/<details/g)).toHaveLength(1);
    // Both inside the block, as names, and once more in the look-alike warning of the name that holds a line break.
    expect(md.stdout.match(/forgeform: no changes/g)).toHaveLength(3);

    const json = await w.cli(['plan', '-c', file, '--format', 'json']);
    expect(json.code, json.stderr).toBe(0);
    for (const l of json.stdout.split('\n')) expect(RAW.test(l), JSON.stringify(l)).toBe(false);
    const plan = JSON.parse(json.stdout) as { changes: { key: string; action: string }[] };
    expect(plan.changes.filter((c) => c.action === 'delete').map((c) => c.key).sort()).toEqual([...HOSTILE].sort());
  });
});
