import { quoted } from './excerpt.js';
import type { ConfigPath } from './types.js';

/**
 * A config path for messages: `repos."acme/widgets".labels.bug`, `policy.prune[1]`. Keys with anything but
 * letters, digits, `_` and `-` (a `/`, `.`, `*`, space, ...) are quoted, as excerpts (short, no KEY=VALUE value).
 * The empty path is `(top level)`.
 */
export function formatPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(top level)';
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += (out ? '.' : '') + (/^[A-Za-z0-9_-]{1,60}$/.test(seg) ? seg : quoted(seg));
  }
  return out;
}

/**
 * Decodes a JSON pointer (`/repos/acme~1widgets/labels`) into path segments. With `data`, a segment is a number
 * exactly where it indexes an array; without, digit-only segments become numbers.
 */
export function decodePointer(pointer: string, data?: unknown): ConfigPath {
  if (pointer === '') return [];
  const raw = pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (data === undefined) return raw.map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  const out: ConfigPath = [];
  let node: unknown = data;
  for (const s of raw) {
    if (Array.isArray(node)) {
      out.push(Number(s));
      node = node[Number(s)];
    } else {
      out.push(s);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[s] : undefined;
    }
  }
  return out;
}
