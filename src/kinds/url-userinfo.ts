/**
 * The user name and password a mirror or hook URL may carry, found however the URL is written (issue 28, class 2):
 * a URL is printed in plans (a hook's and a push mirror's identity, a pull mirror's source), saved in plan files
 * and exported, so the credentials must go before it is shown. WHATWG's parser alone misses the hostile forms: a
 * leading space or tab, a password holding an unencoded `/`, `?` or `#` (`https://u:pa/ss@host`: the parser ends
 * the authority at the `/` and fails on the port, or takes `pa` for a port and `/ss@host` for the path), a
 * fullwidth `＠` or `：` (NFKC makes them `@`, `:`), a scheme-relative `//user:pw@host`, and git's scp form
 * `user:pw@host:path`. Here the authority runs to the LAST `@` of the URL, unless what precedes that `@` is plainly
 * a host and a path (`https://host/v@1`: no `:` before its first `/`). Go's url.Parse (what every release uses) takes
 * the last `@` of the authority too: src/sandbox/NOTES.md, pull mirrors.
 */

/** Characters that act as `@`, `:`, `/`, `?`, `#` or `\` once NFKC-normalised (fullwidth and small forms). */
function asciiDelimiter(c: string): string {
  const n = c.normalize('NFKC');
  return n.length === 1 && '@:/?#\\'.includes(n) ? n : c;
}

/** WHATWG removes tabs and newlines anywhere and C0 controls and spaces at both ends. */
function cleaned(url: string): string {
  let text = url.replace(/[\t\n\r]/g, '');
  const blank = (c: string | undefined) => c !== undefined && c.charCodeAt(0) <= 0x20;
  while (blank(text[0])) text = text.slice(1);
  while (blank(text[text.length - 1])) text = text.slice(0, -1);
  return text;
}

interface Userinfo {
  /** The URL as parsed (tabs, newlines and surrounding blanks removed). */
  url: string;
  /** Where the user name starts and where its `@` is, in `url`; undefined when the URL has no user part. */
  start?: number;
  at?: number;
}

function findUserinfo(raw: string): Userinfo {
  const url = cleaned(raw);
  // One code unit per code unit: positions in `plain` are positions in `url`.
  const plain = [...url].map((c) => (c.length === 1 ? asciiDelimiter(c) : c)).join('');
  if (plain.length !== url.length) return { url };
  const scheme = /^(?:[a-z][a-z0-9+.-]*:)?[/\\]{2}/i.exec(plain);
  const start = scheme ? scheme[0].length : 0;
  const rest = plain.slice(start);
  const at = rest.lastIndexOf('@');
  if (at < 0) return { url };
  const before = rest.slice(0, at);
  const sep = before.search(/[/?#\\]/);
  const head = sep < 0 ? before : before.slice(0, sep);
  // `host/path@x`: no `:` before the first `/`, `?` or `#`, so the `@` is in the path, the query or the fragment. A
  // port before such a path (`host:8443/a@b`) is taken for a password: hidden rather than shown (a password may
  // be digits).
  if (sep >= 0 && !head.includes(':')) return { url };
  return { url, start, at: start + at };
}

/** Whether the URL carries a user name or password, in any of the forms above. */
export function hasUserinfo(url: string): boolean {
  return findUserinfo(url).at !== undefined;
}

/** The URL with its user name and password replaced by `replacement` (`https://(sensitive)@host/x`), or removed when it is ''. */
export function withoutUserinfo(url: string, replacement = ''): string {
  const found = findUserinfo(url);
  if (found.at === undefined || found.start === undefined) return url === found.url ? url : found.url;
  const tail = found.url.slice(found.at + 1);
  return `${found.url.slice(0, found.start)}${replacement ? `${replacement}@` : ''}${tail}`;
}
