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
// The password of a URL's user:password@; also when the "@" is past the end of what is looked at.
const URL_PASSWORD = /(\b[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#@:]*:)[^\s/?#@]*(@|$)/g;
// Messages of the YAML parser say "what: detail" themselves: in them only KEY=VALUE is masked.
const EQUALS = /([A-Za-z_][A-Za-z0-9_.-]*[ \t]*=[ \t]*)[^\s]+/g;

/**
 * `text` with the password of a URL and the value of every KEY=VALUE (and KEY: VALUE, unless `colon` is false) pair
 * hidden, cut to `max` characters (a cut marked with …).
 */
export function excerpt(text: string, max = MAX_EXCERPT, colon = true): string {
  // Only the start is looked at: the patterns backtrack, and over a 500 KB string that would take minutes. Masking
  // shortens text, so twice what can be shown is looked at; a value that runs past the end is masked to the end.
  const window = text.slice(0, 2 * max);
  const masked = window.replace(URL_PASSWORD, '$1***$2').replace(colon ? ASSIGNMENT : EQUALS, '$1***');
  if (masked.length <= max && window.length === text.length) return masked;
  let end = Math.min(masked.length, max - 1);
  // Never cut a surrogate pair in two: half a character would print as garbage.
  if (/[\uD800-\uDBFF]/.test(masked[end - 1] ?? '')) end--;
  return `${masked.slice(0, end)}…`;
}

/** The excerpt in double quotes, with control characters escaped as JSON does. */
export function quoted(text: string, max = MAX_EXCERPT): string {
  return JSON.stringify(excerpt(text, max));
}
