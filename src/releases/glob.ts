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

/** Characters the glob takes literally that a regular expression does not. */
const ESCAPED = new Set(['.', '^', '$', '(', ')', '|', '+']);

/** One pass over a pattern, writing the regular expression's source to `out`. */
class GlobCompiler {
  private pos = 0;
  out = '^';

  constructor(
    private readonly chars: string[],
    /** What `*` and `?` may match: anything but a separator. */
    private readonly nonSep: string,
  ) {}

  /** The pattern; `sub`: a `{a,b}` alternative, up to its `}`. */
  compile(sub: boolean): void {
    const { chars } = this;
    while (this.pos < chars.length) {
      const c = chars[this.pos++]!;
      if (sub && c === '}') {
        this.out += ')';
        return;
      }
      if (ESCAPED.has(c)) this.out += `\\${c}`;
      else if (c === '*' && chars[this.pos] === '*') {
        this.pos++;
        this.out += '.*';
      } else if (c === '*') this.out += `${this.nonSep}*`;
      else if (c === '?') this.out += this.nonSep;
      else if (c === '[') this.charClass();
      else if (c === '{') {
        this.out += '(';
        this.compile(true);
      } else if (c === ',') this.out += sub ? '|' : ',';
      else if (c === '\\') {
        if (this.pos >= chars.length) throw new GlobError('no character to escape');
        this.out += `\\${chars[this.pos++]!}`;
      } else this.out += c;
    }
  }

  /** `[…]`, `[!…]`: a character class, after its `[`. */
  private charClass(): void {
    const { chars } = this;
    this.out += '[';
    if (this.pos < chars.length && chars[this.pos] === '!') {
      this.pos++;
      this.out += '^';
    }
    while (this.pos < chars.length) {
      const c = chars[this.pos++]!;
      if (c === ']') {
        this.out += ']';
        return;
      }
      if (c === '\\') {
        if (this.pos >= chars.length) throw new GlobError('unterminated character class escape');
        this.out += `\\${chars[this.pos++]!}`;
      } else {
        this.out += c;
      }
    }
    throw new GlobError('unterminated character class');
  }
}

/** `glob.Compile(pattern, separators...)`: the regular expression, or a GlobError with Gitea's text. */
export function compileGlob(pattern: string, separators: string[] = []): RegExp {
  const compiler = new GlobCompiler([...pattern], separators.length ? `[^${separators.map(escapeRe).join('')}]` : '.');
  compiler.compile(false);
  const out = `${compiler.out}$`;
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
