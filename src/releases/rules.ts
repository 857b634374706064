/**
 * The value rules of go-chi/binding as Gitea and Forgejo run them on a request body (the rules of a
 * field's `binding:"…"` tag, field-rules/*.json): one implementation, run by the sandbox's binder on
 * what it receives (src/sandbox/http/binding.ts) and by the plan on what forgeform would send
 * (src/plan/field-rules.ts). Sources: `gitea.com/go-chi/binding` `binding.go` (`validateField`:
 * MaxSize/MinSize count runes, `Url` and `ValidUrl` its `isURL` check, `AlphaDashDot`, `In`), Gitea's
 * own rules added in `modules/validation/binding.go` (`GitRefName`, `GlobPattern`, `ValidUrl`,
 * `Username`), and `modules/validation/helpers.go` (`IsValidURL`: http or https with a host).
 */
import { compileGlob, GlobError } from './glob.js';

const USERNAME = /^[\da-zA-Z][-.\w]*$/;
const ALPHA_DASH_DOT_INVALID = /[^\d\w\-_.]/;
const EMAIL = /[\w!#$%&'*+/=?^_`{|}~-]+(?:\.[\w!#$%&'*+/=?^_`{|}~-]+)*@(?:[\w](?:[\w-]*[\w])?\.)+[a-zA-Z0-9](?:[\w-]*[\w])?/;

export function isValidUsername(name: string): boolean {
  return USERNAME.test(name) && !/[-._]{2,}/.test(name) && !/[-._]$/.test(name);
}

export function isValidUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    return false;
  }
}

/** `git check-ref-format` rules, roughly (`modules/git/ref.go`). */
export function isValidRefName(s: string): boolean {
  if (s === '') return true;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x20~^:?*[\\\x7f]/.test(s)) return false;
  return !(s.startsWith('/') || s.endsWith('/') || s.endsWith('.') || s.includes('..') || s.includes('//') || s.includes('@{') || s === '@' || s.endsWith('.lock') || s.split('/').some((c) => c.startsWith('.')));
}

/** The number in `MaxSize(40)`. */
export const sizeOf = (rule: string): number => Number(/\((\d+)\)/.exec(rule)?.[1] ?? '0');

/** The values `In(,public,private)` allows. */
export const inValues = (rule: string): string[] => rule.slice(3, -1).split(',');

/** A value rule that fails on a value: its word in the 422 answer (`[Website]: Url`), or undefined when it holds. `Required` and `OmitEmpty` are the binder's. */
export function ruleFailure(rule: string, v: unknown): string | undefined {
  const s = typeof v === 'string' ? v : undefined;
  if (rule.startsWith('MaxSize(')) {
    if ((s !== undefined && [...s].length > sizeOf(rule)) || (Array.isArray(v) && v.length > sizeOf(rule))) return 'MaxSize';
  } else if (rule.startsWith('MinSize(')) {
    if (s !== undefined && [...s].length < sizeOf(rule)) return 'MinSize';
  } else if (rule === 'Email') {
    if (!EMAIL.test(String(v ?? ''))) return 'Email';
  } else if (rule === 'Username') {
    if (!isValidUsername(String(v ?? ''))) return 'invalid username';
  } else if (rule === 'AlphaDashDot') {
    if (ALPHA_DASH_DOT_INVALID.test(String(v ?? ''))) return 'AlphaDashDot';
  } else if (rule.startsWith('In(')) {
    if (!inValues(rule).includes(String(v ?? ''))) return 'In';
  } else if (rule === 'ValidUrl' || rule === 'Url') {
    if (s && !isValidUrl(s)) return 'Url';
  } else if (rule === 'GitRefName') {
    if (s !== undefined && !isValidRefName(s)) return 'GitRefName';
  } else if (rule === 'GlobPattern') {
    return s ? globFailure(s) : undefined;
  }
  return undefined;
}

/** Gitea's glob compiler's error for a pattern that does not compile (the 422's message). */
function globFailure(pattern: string): string | undefined {
  try {
    compileGlob(pattern);
    return undefined;
  } catch (err) {
    return err instanceof GlobError ? err.message : String(err);
  }
}

/** What a failing rule means, for a plan error: "at most 100 characters", "a URL (http or https)". */
export function ruleMeaning(rule: string): string {
  if (rule.startsWith('MaxSize(')) return `at most ${sizeOf(rule)} characters`;
  if (rule.startsWith('MinSize(')) return `at least ${sizeOf(rule)} characters`;
  if (rule.startsWith('In(')) return `one of ${inValues(rule).map((v) => JSON.stringify(v)).join(', ')}`;
  const words: Record<string, string> = {
    Email: 'an e-mail address',
    Username: 'a valid user name (letters, digits, "-", "_", "." inside)',
    AlphaDashDot: 'only letters, digits, "-", "_" and "."',
    ValidUrl: 'an http or https URL',
    Url: 'an http or https URL',
    GitRefName: 'a valid git reference name',
    GlobPattern: 'a valid glob pattern',
  };
  return words[rule] ?? rule;
}

/**
 * How a binding version runs a field's rules on a Go pointer field (`*string`), by the module the
 * tag's go.mod pins (field-rules/*.json `binding`):
 *
 * - `address`: gitea.com/go-chi/binding 04b515c6d669 (Gitea 1.21.11 go.mod l.10). `validateField` gets
 *   the pointer itself: `OmitEmpty`/`Required` compare it with nil, `MaxSize`/`MinSize` never fail (not
 *   a string, not a slice), and every other rule reads `fmt.Sprintf("%v", ptr)`, the address
 *   (`0xc000…`, or `<nil>` for an omitted field): `ValidUrl`, `Url`, `Email`, `In` refuse ANY value.
 *   go-gitea/gitea#30518 (1.21.7 and 1.21.11: `PATCH /user/settings` with `website:
 *   "https://gitea.com"` answers 422 `[Website]: Url`), fixed on release/v1.21 after v1.21.11 by
 *   87bd47cff3 "Upgrade binding to fix bug (#30742)" (to 39a851e106ed; no 1.21 release was tagged after).
 * - `value`: gitea.com/go-chi/binding 39a851e106ed (Gitea 1.22–1.26, Forgejo 7–9) and its fork
 *   code.forgejo.org/go-chi/binding v1.0.x (Forgejo 10+; Forgejo 310376525b forks it from 39a851e106ed).
 *   Read in v1.0.1 `binding.go` l.363–374: a pointer is dereferenced (nil → the zero of its type), and
 *   l.413–430: a zero value runs `Required` only. 39a851e106ed itself is not stored here; that it reads
 *   the pointed-to value is what #30518's fix shows, that a nil pointer skips the rules is what Gitea
 *   1.22+ `EditRepoOption.ProjectsMode *string binding:"In(repo,owner,all)"` (v1.22.6 repo.go:185, no
 *   OmitEmpty) needs to let every repository edit without it through.
 */
export type BindingMode = 'address' | 'value';

const BINDING_MODES: Readonly<Record<string, BindingMode>> = {
  'gitea.com/go-chi/binding v0.0.0-20230415142243-04b515c6d669': 'address',
  'gitea.com/go-chi/binding v0.0.0-20240430071103-39a851e106ed': 'value',
  'code.forgejo.org/go-chi/binding v1.0.0': 'value',
  'code.forgejo.org/go-chi/binding v1.0.1': 'value',
};

/** The mode of a table's binding module; one not listed reads values (the newest behaviour). */
export const bindingModeOf = (binding: string | undefined): BindingMode => BINDING_MODES[binding ?? ''] ?? 'value';

/** A field as the binder sees it: its rules, whether Go declares it a pointer, the zero value of its (pointed-to) type. */
export interface BoundField {
  rules: readonly string[];
  pointer: boolean;
  /** `''`, `0`, `false`; undefined for lists and structs (their zero is nil). */
  zero: unknown;
}

/** What the `address` binder formats a pointer as: an address (any will do: only its shape is judged), or `<nil>`. */
const ADDRESS = '0xc000123450';
const NIL = '<nil>';

/** A rule that fails, with its word in the 422 answer; `address` when it failed on a pointer's address, not its value. */
export interface BindingFailure {
  rule: string;
  word: string;
  address?: boolean;
}

const isZeroOf = (v: unknown, zero: unknown): boolean => v === undefined || v === null || v === zero;

/**
 * The first rule of a field that a value (undefined: the key was absent or null) breaks, as the
 * release's binder judges it (`validateField` of the module `mode` names); undefined when all hold.
 * `[]` is not zero: it passes `Required` (only a missing or null list is nil).
 */
export function bindingFailure(field: BoundField, value: unknown, mode: BindingMode): BindingFailure | undefined {
  const pointerAsAddress = field.pointer && mode === 'address';
  const zero = isZeroOf(value, pointerAsAddress ? undefined : field.zero);
  if (zero && mode === 'value') return field.rules.includes('Required') ? { rule: 'Required', word: 'Required' } : undefined;
  for (const rule of field.rules) {
    if (rule === 'OmitEmpty') {
      if (zero) return undefined;
      continue;
    }
    if (rule === 'Required') {
      if (zero) return { rule, word: 'Required' };
      continue;
    }
    if (pointerAsAddress) {
      if (rule.startsWith('MaxSize(') || rule.startsWith('MinSize(')) continue;
      const word = ruleFailure(rule, value === undefined || value === null ? NIL : ADDRESS);
      if (word) return { rule, word, address: true };
      continue;
    }
    const word = ruleFailure(rule, value ?? field.zero);
    if (word) return { rule, word };
  }
  return undefined;
}
