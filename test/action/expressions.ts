/**
 * The expression language of workflow files (`${{ … }}` and `if:`), as GitHub documents it and
 * act (Gitea's and Forgejo's runner) implements it: literals, property access, `!`, comparisons,
 * `&&` / `||` (which yield an operand, not a boolean), and the functions the examples may use.
 * Anything else throws, so that a workflow the test cannot evaluate fails loudly instead of being
 * evaluated wrongly.
 */
type Value = unknown;
export type Scope = Record<string, Value>;
export interface Status {
  failed: boolean;
  cancelled: boolean;
}

type Token = { t: 'num' | 'str' | 'id' | 'op'; v: string };

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) i++;
    else if (c === "'") {
      let s = '';
      i++;
      for (;;) {
        if (i >= src.length) throw new Error(`unterminated string in ${src}`);
        if (src[i] === "'" && src[i + 1] === "'") {
          s += "'";
          i += 2;
        } else if (src[i] === "'") break;
        else s += src[i++];
      }
      i++;
      out.push({ t: 'str', v: s });
    } else if (/[0-9]/.test(c)) {
      const m = /^[0-9.]+/.exec(src.slice(i))![0];
      out.push({ t: 'num', v: m });
      i += m.length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(src.slice(i))![0];
      out.push({ t: 'id', v: m });
      i += m.length;
    } else {
      const two = src.slice(i, i + 2);
      if (['==', '!=', '&&', '||', '<=', '>='].includes(two)) {
        out.push({ t: 'op', v: two });
        i += 2;
      } else if ('!<>().[],*.'.includes(c)) {
        out.push({ t: 'op', v: c });
        i++;
      } else throw new Error(`cannot tokenize "${c}" in ${src}`);
    }
  }
  return out;
}

const truthy = (v: Value) => !(v === false || v === 0 || v === '' || v === null || v === undefined || Number.isNaN(v));

/** Loose equality of the expression language: strings compared case-insensitively, else as numbers. */
function equal(a: Value, b: Value): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b) return a === b;
  const num = (v: Value) => (v === null || v === undefined ? 0 : typeof v === 'boolean' ? Number(v) : typeof v === 'string' ? (v.trim() === '' ? 0 : Number(v)) : NaN);
  return num(a) === num(b);
}

export function toText(v: Value): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v, null, 2);
  return String(v);
}

export function evaluate(src: string, scope: Scope, status: Status = { failed: false, cancelled: false }): Value {
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p];
  const take = (v?: string) => {
    const t = toks[p++];
    if (!t || (v !== undefined && t.v !== v)) throw new Error(`expected ${v ?? 'a token'} in ${src}`);
    return t;
  };
  const functions: Record<string, (args: Value[]) => Value> = {
    always: () => true,
    success: () => !status.failed && !status.cancelled,
    failure: () => status.failed,
    cancelled: () => status.cancelled,
    contains: ([a, b]) => (Array.isArray(a) ? a.some((x) => equal(x, b)) : toText(a).toLowerCase().includes(toText(b).toLowerCase())),
    startsWith: ([a, b]) => toText(a).toLowerCase().startsWith(toText(b).toLowerCase()),
    endsWith: ([a, b]) => toText(a).toLowerCase().endsWith(toText(b).toLowerCase()),
    format: ([f, ...rest]) => toText(f).replace(/\{(\d+)\}/g, (_m, n: string) => toText(rest[Number(n)])),
    toJSON: ([a]) => JSON.stringify(a, null, 2),
    fromJSON: ([a]) => JSON.parse(toText(a)) as Value,
  };
  const primary = (): Value => {
    const t = take();
    if (t.t === 'str') return t.v;
    if (t.t === 'num') return Number(t.v);
    if (t.t === 'op' && t.v === '(') {
      const v = or();
      take(')');
      return v;
    }
    if (t.t === 'op' && t.v === '!') return !truthy(primary());
    if (t.t !== 'id') throw new Error(`unexpected ${t.v} in ${src}`);
    if (t.v === 'true') return true;
    if (t.v === 'false') return false;
    if (t.v === 'null') return null;
    if (peek()?.v === '(') {
      take('(');
      const args: Value[] = [];
      while (peek()?.v !== ')') {
        args.push(or());
        if (peek()?.v === ',') take(',');
      }
      take(')');
      const f = functions[t.v];
      if (!f) throw new Error(`the test runner has no function ${t.v}() (in ${src})`);
      return f(args);
    }
    if (!(t.v in scope)) throw new Error(`unknown context ${t.v} in ${src}`);
    let v: Value = scope[t.v];
    for (;;) {
      if (peek()?.v === '.') {
        take('.');
        const name = take().v;
        v = v && typeof v === 'object' ? (v as Record<string, Value>)[name] : undefined;
      } else if (peek()?.v === '[') {
        take('[');
        const key = or();
        take(']');
        v = v && typeof v === 'object' ? (v as Record<string, Value>)[toText(key)] : undefined;
      } else return v;
    }
  };
  const unary = (): Value => primary();
  const comparison = (): Value => {
    let a = unary();
    while (peek() && ['==', '!=', '<', '>', '<=', '>='].includes(peek()!.v)) {
      const op = take().v;
      const b = unary();
      a = op === '==' ? equal(a, b) : op === '!=' ? !equal(a, b) : op === '<' ? Number(a) < Number(b) : op === '>' ? Number(a) > Number(b) : op === '<=' ? Number(a) <= Number(b) : Number(a) >= Number(b);
    }
    return a;
  };
  const and = (): Value => {
    let a = comparison();
    while (peek()?.v === '&&') {
      take();
      const b = comparison();
      a = truthy(a) ? b : a;
    }
    return a;
  };
  const or = (): Value => {
    let a = and();
    while (peek()?.v === '||') {
      take();
      const b = and();
      a = truthy(a) ? a : b;
    }
    return a;
  };
  const v = or();
  if (p !== toks.length) throw new Error(`trailing tokens in ${src}`);
  return v;
}

/** A value with `${{ … }}` parts: one whole expression keeps its type, parts in text become text. */
export function interpolate(template: unknown, scope: Scope, status?: Status): unknown {
  if (typeof template !== 'string') return template;
  const whole = /^\$\{\{([\s\S]*?)\}\}$/.exec(template.trim());
  if (whole && !whole[1]!.includes('}}')) return evaluate(whole[1]!, scope, status);
  return template.replace(/\$\{\{([\s\S]*?)\}\}/g, (_m, e: string) => toText(evaluate(e, scope, status)));
}

/** An `if:`: with or without `${{ }}`; a step's default is success(). */
export function condition(src: unknown, scope: Scope, status: Status): boolean {
  if (src === undefined) return !status.failed && !status.cancelled;
  if (typeof src === 'boolean') return src;
  const text = String(src).trim();
  const inner = /^\$\{\{([\s\S]*)\}\}$/.exec(text)?.[1] ?? text;
  // GitHub: an `if:` without a status function gets `success() &&` in front.
  const explicit = /\b(always|success|failure|cancelled)\(\)/.test(inner);
  return (explicit || (!status.failed && !status.cancelled)) && truthy(evaluate(inner, scope, status));
}
