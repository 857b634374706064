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
