/**
 * The forms a credential or secret value takes when a server, a proxy or a library echoes it back (issue 28):
 * matching only the exact string let 45 of 55 encoded forms through. A server that refuses a write may quote its
 * body URL-encoded (a form post), `+`-encoded (Go's url.QueryEscape), in base64 (a Basic header, `user:value`), in
 * hex, HTML-escaped (Go's html.EscapeString, html/template's &#43;), JSON-escaped (Go's encoder writes `<>&` as
 * \u003c…), in another case (matching ignores case for every form of 8 characters or more) or cut short (a prefix
 * of at least half the value and MIN_PREFIX characters). `redactor` builds one matcher for a set of values.
 */

/** A form shorter than this is matched in its own case only: ignoring case on 3 characters garbles ordinary text. */
const CASELESS_FROM = 8;
/** A cut value is masked from this many characters on (and from half the value): shorter prefixes are ordinary words. */
export const MIN_PREFIX = 10;
/** A base64 run shorter than this is left alone: short runs of base64 letters are ordinary words. */
const MIN_BASE64 = 8;

const HTML_NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const HTML_NUMERIC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;', '+': '&#43;' };

const utf8 = (s: string) => Buffer.from(s, 'utf8');

/** Each byte as %XX: what a strict encoder writes for every character. */
function percentAll(value: string): string {
  return [...utf8(value)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
}

/** Go's url.QueryEscape: unreserved characters kept, a space as `+`, the rest %XX. */
function queryEscape(value: string): string {
  return [...utf8(value)]
    .map((b) => {
      const c = String.fromCharCode(b);
      if (/[A-Za-z0-9_.~-]/.test(c)) return c;
      return c === ' ' ? '+' : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/** The part of base64(prefix + value) that does not depend on what came before or after, for each alignment. */
function base64Cores(value: string): string[] {
  const bytes = utf8(value);
  const out: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    // With `shift` bytes before it, the value's first whole group of three starts at (3 - shift) % 3.
    const skip = (3 - shift) % 3;
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole <= 0) continue;
    const core = bytes.subarray(skip, skip + whole).toString('base64');
    out.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return out.filter((s) => s.length >= MIN_BASE64);
}

function escapeWith(value: string, table: Record<string, string>): string {
  return value.replace(/[&<>"'+]/g, (c) => table[c] ?? c);
}

/** JSON as JSON.stringify and as Go's encoder (`<`, `>`, `&`, U+2028, U+2029 as \u escapes) write it, and fully escaped. */
function jsonForms(value: string): string[] {
  const plain = JSON.stringify(value).slice(1, -1);
  const go = plain.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const all = [...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
  return [plain, go, all];
}

/** Every encoded form of `value` (the value itself first), each at least `min` characters long. */
export function encodedForms(value: string, min = 3): string[] {
  const forms = new Set<string>();
  const add = (s: string) => {
    if (s.length >= min) forms.add(s);
  };
  const whole = (v: string) => {
    add(v);
    for (const j of jsonForms(v)) add(j);
    add(encodeURIComponent(v));
    add(encodeURI(v));
    add(new URLSearchParams({ v }).toString().slice(2));
    add(queryEscape(v));
    add(percentAll(v));
    add(escapeWith(v, HTML_NAMED));
    add(escapeWith(v, HTML_NUMERIC));
    add(escapeWith(v, { ...HTML_NAMED, "'": '&#x27;' }));
    add(utf8(v).toString('hex'));
    for (const b of base64Cores(v)) add(b);
  };
  whole(value);
  if (/[\r\n]/.test(value)) for (const line of value.split(/\r\n|\r|\n/)) for (const l of [line, line.trim()]) whole(l);
  return [...forms];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** The longest value whose encoded forms are looked for (see redactor). */
const MAX_REGEX_VALUE = 4096;

/** The longest value whose cut forms are looked for (see prefixPattern). */
const MAX_PREFIX_VALUE = 512;

/** A pattern for a cut `value`: its first max(MIN_PREFIX, half) characters, then as many of the rest as follow. */
function prefixPattern(value: string): string | undefined {
  const chars = [...value];
  // One optional group per character: a value of 100 KB (a certificate, a config read from the environment) made the
  // regular expression compiler run out of memory. Past this length only its whole forms are masked.
  if (chars.length > MAX_PREFIX_VALUE) return undefined;
  const need = Math.max(MIN_PREFIX, Math.ceil(chars.length / 2));
  if (chars.length <= need) return undefined;
  let rest = '';
  for (let i = chars.length - 1; i >= need; i--) rest = `(?:${escapeRegExp(chars[i] ?? '')}${rest})?`;
  return `${escapeRegExp(chars.slice(0, need).join(''))}${rest}`;
}

/**
 * Lines that carry credentials whatever their value: an `Authorization:` header (as a git config's
 * `extraheader = AUTHORIZATION: basic …` or a server's echo of the request has it) and git's `extraheader`.
 */
const CREDENTIAL_LINE = /\b(authorization|extraheader|proxy-authorization)("?[ \t]*[:=][ \t]*"?)(?!\(sensitive\))[^\s"'\r\n][^"'\r\n]*/gi;

/**
 * Replaces every form of `values` (and every credential line) in a text with `replacement`. Built once per set of
 * values: two regular expressions (exact case for short forms, any case for the rest), longest alternatives first,
 * so that a line of a value does not break the match of the whole value.
 */
export function redactor(values: Iterable<string>, replacement: string): (text: string) => string {
  const exact = new Set<string>();
  const caseless = new Set<string>();
  const prefixes: string[] = [];
  // A very long value (a certificate, a file read from the environment) would make the regular expressions too large
  // to compile (its \u-escaped form alone is six times its size): it is masked as it is, by plain search.
  const long: string[] = [];
  for (const v of values) {
    if (v.length > MAX_REGEX_VALUE) {
      long.push(v);
      continue;
    }
    for (const f of encodedForms(v)) (f.length >= CASELESS_FROM ? caseless : exact).add(f);
    const p = prefixPattern(v);
    if (p) prefixes.push(p);
  }
  const alternation = (forms: Iterable<string>) => [...forms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  const sensitive = exact.size ? new RegExp(alternation(exact).join('|'), 'g') : undefined;
  const anyCase = caseless.size || prefixes.length ? new RegExp([...alternation(caseless), ...prefixes].join('|'), 'gi') : undefined;
  return (text) => {
    let t = text;
    for (const v of long) t = t.split(v).join(replacement);
    if (anyCase) t = t.replace(anyCase, replacement);
    if (sensitive) t = t.replace(sensitive, replacement);
    return t.replace(CREDENTIAL_LINE, `$1$2${replacement}`);
  };
}
