/**
 * Text of a config file quoted in an error message. A message must stay short whatever the file holds (a binary
 * file or a 1 MB key must not give a 1 MB message) and must not repeat a credential: a file that is not a config,
 * such as a `.env` given to `-c` by mistake, reads as YAML strings like "FORGEFORM_TOKEN=abc…".
 */

/** Characters of a file's text quoted at most, per excerpt. */
export const MAX_EXCERPT = 60;

// KEY=VALUE (a .env or .ini line) and KEY: VALUE inside a string: what follows the separator may be a credential.
// A URL's "https://" is no such pair: its ":" is not followed by a space.
const ASSIGNMENT = /([A-Za-z_][A-Za-z0-9_.-]*[ \t]*(?:=|:[ \t])[ \t]*)[^\s]+/g;
// Messages of the YAML parser say "what: detail" themselves: in them only KEY=VALUE is masked.
const EQUALS = /([A-Za-z_][A-Za-z0-9_.-]*[ \t]*=[ \t]*)[^\s]+/g;

/**
 * `text` with the value of every KEY=VALUE (and KEY: VALUE, unless `colon` is false) pair hidden, cut to `max`
 * characters (the cut marked with …).
 */
export function excerpt(text: string, max = MAX_EXCERPT, colon = true): string {
  // Only what can be shown is masked: the patterns backtrack, and over a 500 KB string that would take minutes. A
  // value cut off at the end is not shown anyway.
  const masked = text.slice(0, max + 1).replace(colon ? ASSIGNMENT : EQUALS, '$1***');
  if (masked.length <= max) return masked;
  // Never cut a surrogate pair in two: half a character would print as garbage.
  const end = /[\uD800-\uDBFF]/.test(masked[max - 2] ?? '') ? max - 2 : max - 1;
  return `${masked.slice(0, end)}…`;
}

/** The excerpt in double quotes, with control characters escaped as JSON does. */
export function quoted(text: string, max = MAX_EXCERPT): string {
  return JSON.stringify(excerpt(text, max));
}
