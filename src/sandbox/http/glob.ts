/**
 * Gitea's own glob compiler (`modules/glob/glob.go`, 2025+, modelled on gobwas/glob): a pattern
 * becomes an anchored regular expression. Used for the `GlobPattern` binding rule (e.g. a hook's
 * `branch_filter`), whose 422 message is the compile error.
 */

export class GlobError extends Error {
  override name = 'GlobError';
}

function escapeRe(c: string): string {
  return c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** `glob.Compile(pattern, separators...)`: the regular expression, or a GlobError with Gitea's text. */
export function compileGlob(pattern: string, separators: string[] = []): RegExp {
  const chars = [...pattern];
  let pos = 0;
  let out = '^';
  const nonSep = separators.length ? `[^${separators.map(escapeRe).join('')}]` : '.';

  const compileChars = (): void => {
    out += '[';
    if (pos < chars.length && chars[pos] === '!') {
      pos++;
      out += '^';
    }
    while (pos < chars.length) {
      const c = chars[pos++]!;
      if (c === ']') {
        out += ']';
        return;
      }
      if (c === '\\') {
        if (pos >= chars.length) throw new GlobError('unterminated character class escape');
        out += `\\${chars[pos++]!}`;
      } else {
        out += c;
      }
    }
    throw new GlobError('unterminated character class');
  };

  const compile = (sub: boolean): void => {
    while (pos < chars.length) {
      const c = chars[pos++]!;
      if (sub && c === '}') {
        out += ')';
        return;
      }
      switch (c) {
        case '*':
          if (chars[pos] === '*') {
            pos++;
            out += '.*';
          } else {
            out += `${nonSep}*`;
          }
          break;
        case '?':
          out += nonSep;
          break;
        case '+':
          out += '\\+';
          break;
        case '[':
          compileChars();
          break;
        case '{':
          out += '(';
          compile(true);
          break;
        case ',':
          out += sub ? '|' : ',';
          break;
        case '\\':
          if (pos >= chars.length) throw new GlobError('no character to escape');
          out += `\\${chars[pos++]!}`;
          break;
        case '.':
        case '^':
        case '$':
        case '(':
        case ')':
        case '|':
          out += `\\${c}`;
          break;
        default:
          out += c;
      }
    }
  };

  compile(false);
  out += '$';
  const opens = (out.match(/(?<!\\)\(/g) ?? []).length;
  const closes = (out.match(/(?<!\\)\)/g) ?? []).length;
  // An unterminated `{` leaves the group open: Go's regexp compiler rejects it.
  if (opens > closes) throw new GlobError(`failed to compile glob regexp: error parsing regexp: missing closing ): \`${out}\``);
  try {
    return new RegExp(out, 'u');
  } catch (err) {
    throw new GlobError(`failed to compile glob regexp: error parsing regexp: ${(err as Error).message}`);
  }
}
