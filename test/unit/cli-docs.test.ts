/**
 * The CLI summaries of README.md and docs/cli.md list exactly the options each command takes (its own `--help`):
 * an option added to the CLI and not to the docs, or a documented one that no longer exists, fails here. And the
 * messages docs/errors.md quotes for a bad option are the ones the CLI prints.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../src/cli/program.js';

const read = (path: string) => readFileSync(fileURLToPath(new URL(`../../${path}`, import.meta.url)), 'utf8');
const COMMANDS = ['validate', 'plan', 'apply', 'show', 'unlock', 'export', 'sandbox'] as const;

/** The long options of a command as its --help lists them (without --help), and the long name of each short one. */
async function optionsOf(command: string): Promise<{ long: Set<string>; short: Map<string, string> }> {
  const help = await runCommand([command, '--help'], { capture: true });
  const found = [...help.stdout.matchAll(/^\s+(?:(-\w), )?(--[a-z][a-z-]*)/gm)];
  const short = new Map(found.filter((m) => m[1]).map((m) => [m[1]!, m[2]!]));
  return { long: new Set(found.map((m) => m[2]!).filter((n) => n !== '--help')), short };
}

/**
 * The options a summary block gives `command`: those of its `forgeform COMMAND` line and the lines that continue it
 * (indented), and those of a comment line "…, COMMAND … also take: …" with its continuation comments.
 */
function documented(block: string, command: string, short: ReadonlyMap<string, string>): Set<string> {
  const lines = block.split('\n');
  const out = new Set<string>();
  let mine = false;
  for (const line of lines) {
    if (/^forgeform /.test(line)) mine = line.startsWith(`forgeform ${command} `) || line === `forgeform ${command}`;
    else if (/^# /.test(line)) mine = new RegExp(`^# (?:[a-z]+, )*(?:[a-z]+ and )?\\b${command}\\b.* also takes?:`).test(line) || (/^#\s{2,}/.test(line) ? mine : false);
    else if (!/^\s/.test(line)) mine = false;
    if (!mine) continue;
    for (const m of line.replace(/^# [^:]*:/, '').matchAll(/\[(-\w|--[a-z][a-z-]*)\b/g)) out.add(short.get(m[1]!) ?? m[1]!);
  }
  return out;
}

/** The first fenced block after a heading (or the first of the file) that holds "forgeform validate". */
function summaryBlock(text: string): string {
  const block = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => /^forgeform validate /m.test(b));
  if (!block) throw new Error('no CLI summary block');
  return block;
}

describe.each([['README.md'], ['docs/cli.md']])('the CLI summary of %s', (file) => {
  const block = summaryBlock(read(file));
  it.each(COMMANDS.map((c) => [c] as const))('lists every option of %s, and no other', async (command) => {
    const real = await optionsOf(command);
    const doc = documented(block, command, real.short);
    // The sandbox also takes --flavor, the first spelling of --flavour: the docs say so in words.
    doc.delete('--flavor');
    expect([...doc].sort()).toEqual([...real.long].sort());
  });
});

describe('docs/errors.md', () => {
  it('quotes the messages the CLI prints for a bad option', async () => {
    const rows = [...read('docs/errors.md').matchAll(/^\| `(--[a-z-]+)`[^|]*\| `(--[a-z-]+ must [^`]*, got ([^`\s]+))` \|$/gm)];
    expect(rows.length).toBeGreaterThan(0);
    for (const [, , message, got] of rows) {
      const option = message!.split(' ')[0]!;
      const run = await runCommand(['validate', '-c', '/nonexistent/forgeform.yaml', option, got!], { capture: true });
      // validate does not take the server's options: plan does, and checks them before any request.
      const result = run.stderr.includes('unknown option') ? await planWith(option, got!) : run.stderr;
      expect(result).toContain(message);
    }
  });
});

/** plan's message for one option value, before it sends anything (no config, no server needed to judge an option). */
async function planWith(option: string, value: string): Promise<string> {
  const env = { ...process.env, FORGEFORM_URL: 'http://127.0.0.1:9', FORGEFORM_TOKEN: 'unused-token' };
  const config = fileURLToPath(new URL('../../examples/demo/forgeform.yaml', import.meta.url));
  return (await runCommand(['plan', '-c', config, option, value], { capture: true, io: { env } })).stderr;
}
