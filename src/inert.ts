/**
 * Making text that a server or a config supplies inert where it is printed. A name on the server is
 * chosen by whoever can create a label or a branch; printed raw, it could move the terminal's cursor
 * and rewrite the plan lines above it (ESC, CR), start a line of its own (LF), hide or reorder what
 * follows (U+202E, zero-width characters), or, in a pull-request comment, close the code fence and
 * write markdown or HTML of its own. Every such character is shown as a visible escape instead, and
 * markdown gets values only escaped or in code spans that they cannot close.
 *
 * The escapes are JSON's (`\n`, `\r`, `\t`, `\u001b`, `\u202e`), so that a value in a JSON string stays
 * valid JSON after them, and so that the text and JSON outputs show the same thing.
 */

/**
 * Characters that are never printed as they are: C0 controls (ESC, CR, LF, NUL, TAB…), DEL and the
 * C1 controls; the bidirectional controls (U+061C, U+200E–U+200F, U+202A–U+202E, U+2066–U+2069); the
 * invisible ones (U+00AD, U+034F, U+115F–U+1160, U+17B4–U+17B5, U+180B–U+180E, U+200B–U+200D, U+2060–
 * U+2064, U+3164, U+FE00–U+FE0F, U+FEFF, U+FFA0, U+FFF9–U+FFFB); the line and paragraph separators
 * (U+2028–U+2029, which some terminals and editors break lines at); and lone surrogates.
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- finding these characters is the point
  /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The same characters, newline allowed: for text that is ours and has lines of its own. */
const UNSAFE_BUT_NEWLINE =
  // eslint-disable-next-line no-control-regex, no-misleading-character-class -- finding these characters is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

function escapeChar(ch: string): string {
  return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** One line of text with every control, bidi and invisible character shown as a visible escape. */
export function inert(text: string): string {
  return text.replace(UNSAFE, escapeChar);
}

/** As inert, but line breaks are kept: for a message of several lines whose line breaks are forgeform's own. */
export function inertLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, escapeChar);
}

/** Whether text holds a character inert would escape. */
export function hasUnsafe(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/**
 * What makes two different names print alike: letters of Cyrillic or Greek beside Latin ones in one name (`bоb`
 * with a Cyrillic `о`), fullwidth forms (`ａ`), and dashes that look like "-" (U+2010–U+2015, U+2212…).
 */
const LOOK_ALIKE_ALWAYS = /[‐-―−⸺⸻﹘﹣！-～]/gu;
const FOREIGN_LETTER = /[\p{Script=Cyrillic}\p{Script=Greek}]/gu;
const LATIN_LETTER = /\p{Script=Latin}/u;

function mixesScripts(name: string): boolean {
  FOREIGN_LETTER.lastIndex = 0;
  const foreign = FOREIGN_LETTER.test(name);
  FOREIGN_LETTER.lastIndex = 0;
  return foreign && LATIN_LETTER.test(name.replace(FOREIGN_LETTER, ''));
}

/** Whether a name holds a character that makes it look like another name (see quoteName). */
export function hasLookAlikes(name: string): boolean {
  LOOK_ALIKE_ALWAYS.lastIndex = 0;
  const found = LOOK_ALIKE_ALWAYS.test(name) || mixesScripts(name) || hasUnsafe(name);
  LOOK_ALIKE_ALWAYS.lastIndex = 0;
  return found;
}

/**
 * A name as quote shows it, with the characters that make it look like another name escaped too (`"b\u043eb"`
 * beside `"bob"`): names are compared by what they are, and a reviewer must see the difference. Values keep their
 * letters (a description in Russian stays readable); only names get this.
 */
export function quoteName(name: string): string {
  const q = quote(name).replace(LOOK_ALIKE_ALWAYS, escapeChar);
  return mixesScripts(name) ? q.replace(FOREIGN_LETTER, escapeChar) : q;
}

/**
 * A name or value in double quotes, as JSON writes a string (`"` and `\` escaped), with the characters
 * JSON leaves raw (DEL, C1, bidi, invisible) escaped too: one line, and nothing in it can end the
 * quotes or hide what follows.
 */
export function quote(text: string): string {
  return inert(JSON.stringify(text));
}

/**
 * Text that forgeform prints, made inert where it came from elsewhere: every escape sequence but the
 * SGR colour codes forgeform itself adds (when `colours` is on) and every other unsafe character but
 * the newline are escaped. The last net of the CLI's output, behind the renderers.
 */
export function inertOutput(text: string, colours: boolean): string {
  if (!colours) return inertLines(text);
  // Keep `ESC [ n(;n)* m` (what picocolors writes); escape everything else.
  // eslint-disable-next-line no-control-regex -- the escape character is what it looks for
  return text.split(/(\u001b\[[0-9;]{0,12}m)/).map((part, i) => (i % 2 === 1 ? part : inertLines(part))).join('');
}

// ---- markdown -----------------------------------------------------------------------------------

/**
 * Text as markdown, inside a line that forgeform starts, that renders as exactly that text: every
 * character that markdown, GitHub's extensions or HTML could read as syntax mid-line is
 * backslash-escaped (CommonMark allows that for any ASCII punctuation), so a value cannot open or close
 * emphasis or strikethrough (`*`, `_`, `~`), a link or image (`[`), an HTML tag, comment or entity
 * (`<`, `&`), a code span, a table cell (`|`) or math (`$`), nor mention someone (`@`). One line: line
 * breaks and other unsafe characters are shown as escapes first.
 */
export function mdText(text: string): string {
  return inert(text).replace(/[\\`*_[\]<>|~&@$]/g, (c) => `\\${c}`);
}

/**
 * Text in an inline code span that it cannot close: the fence is one backtick longer than the longest
 * run of backticks inside, with a space either side when the text starts or ends with a backtick (or
 * a space, which a code span would strip). One line, unsafe characters escaped.
 */
export function mdCode(text: string): string {
  const t = inert(text);
  const fence = '`'.repeat(longestRun(t, '`') + 1);
  const pad = /^[` ]|[` ]$/.test(t) || t === '' ? ' ' : '';
  return `${fence}${pad}${t}${pad}${fence}`;
}

/**
 * Lines in a fenced code block that no line inside can close: the fence is longer than any run of
 * backticks in the lines (at least three). The lines are made inert (they keep no line break of their
 * own), so nothing inside reaches the markdown around the block.
 */
export function mdCodeBlock(lines: string[], info = ''): string[] {
  const safe = lines.map(inert);
  const fence = '`'.repeat(Math.max(3, ...safe.map((l) => longestRun(l, '`') + 1)));
  return [`${fence}${info}`, ...safe, fence];
}

function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/** Text inside an HTML element of a comment (a `<summary>`): one inert line, with `&`, `<`, `>` and `"` as entities. */
export function htmlText(text: string): string {
  return inert(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}
