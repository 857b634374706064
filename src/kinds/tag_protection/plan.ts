import type { TagProtectionConfig } from '../../config/types.js';
import { declaredEntries, normalizeFields } from '../fields.js';
import type { DesiredObject, Planning, PrepareRequest, Problem, Safety, Writing } from '../../model/index.js';
import { accountProblems, lookUpAccounts, type AccessNeeds } from '../branch_protection/accounts.js';
import { nameSet } from '../team/fields.js';
import { fields } from './fields.js';
import type { TagAccounts, TagProtectionTypes } from './types.js';

/**
 * Users the answer lists only when they are the repository's explicit readers: convert.ToTagProtection keeps
 * the allowlisted users found in GetRepoReaders (Gitea v1.23.8 services/convert/convert.go l.421–427; Forgejo
 * v11.0.15 l.415–421), GetUsersWithUnitAccess(read, pull requests) in Gitea v1.25.4 (l.723–729); teams, those
 * with access to the repository (TeamsWithAccessToRepo; GetTeamsWithAccessToAnyRepoUnit(read, code, pulls) from
 * Gitea 1.24, v1.24.7 l.488). A user who reads the repository only because it is public is none of them.
 */
const NEEDS: AccessNeeds = { whitelist_usernames: ['reader'] };

/** Go's regexp (RE2) has no look-around and no back-references; JavaScript's would compile them. */
const NOT_RE2 = /\(\?<?[=!]|\\[1-9]/;

/**
 * What is wrong with a pattern, as ProtectedTag.EnsureCompiledPattern would find it (models/git/protected_tag.go
 * l.37–50: "/…/" is a regular expression, anything else a gobwas/glob). The server never compiles it when it
 * saves it: a broken pattern is stored, and then every tag push and tag API call of the repository fails
 * (IsUserAllowedToControlTag returns the compile error).
 */
export function patternProblem(pattern: string): string | undefined {
  if (pattern !== pattern.trim()) return 'the server trims spaces around a pattern: write it without them';
  if (pattern.length >= 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    const body = pattern.slice(1, -1);
    if (NOT_RE2.test(body)) return `the regular expression ${JSON.stringify(body)} uses look-around or back-references, which Go's regexp does not have`;
    try {
      // Go's inline flags and named groups, in JavaScript's words, only to check the rest compiles.
      new RegExp(body.replace(/\(\?[imsU]+\)/g, '').replace(/\(\?P</g, '(?<'));
    } catch (e) {
      return `the regular expression ${JSON.stringify(body)} does not compile (${e instanceof Error ? e.message : String(e)})`;
    }
    return undefined;
  }
  return globProblem(pattern);
}

/** gobwas/glob refuses an unclosed "[" or "{", and a trailing "\". */
function globProblem(pattern: string): string | undefined {
  const open: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      if (i === pattern.length - 1) return 'the glob ends with an unfinished escape "\\"';
      i++;
    } else if (c === '[' && open.at(-1) !== '[') open.push('[');
    else if (c === ']' && open.at(-1) === '[') open.pop();
    else if (c === '{' && open.at(-1) !== '[') open.push('{');
    else if (c === '}' && open.at(-1) === '{') open.pop();
  }
  return open.length ? `the glob has an unclosed "${open.at(-1)}" (to match a tag by a regular expression, write it between slashes: "/^v[0-9]+$/")` : undefined;
}

export const preparing = {
  /** The users and teams named, looked up as branch protections look theirs up (plan time for check, apply for the guard). */
  async prepare(req) {
    const out: TagAccounts = await lookUpAccounts(req, NEEDS);
    req.run.tagAccounts.set(req.scope.name, out);
    return out;
  },
} satisfies Pick<Writing<TagProtectionTypes>, 'prepare'>;

/** Every problem of a protection's allowlists with the accounts as looked up. */
function allowlistProblems(desired: DesiredObject, known: TagAccounts, scope: PrepareRequest<TagProtectionTypes>['scope'], declared?: Record<string, unknown>): Problem[] {
  return accountProblems(desired, known, scope, declared ?? desired.fields);
}

export const planning = {
  async desired({ entry, scope, run }) {
    const declared = entry?.tag_protections;
    if (!declared) return undefined;
    const objects: DesiredObject[] = declaredEntries(declared).map(([pattern, d]: [string, TagProtectionConfig]) => {
      const { previously, ...cfg }: Record<string, unknown> & { previously?: string[] } = { ...d };
      const o: DesiredObject = { key: pattern, fields: normalizeFields(fields, cfg, true), path: ['repos', scope.name, 'tag_protections', pattern], ...(previously ? { previously } : {}) };
      run.declared.set(o, cfg);
      return o;
    });
    return { objects, problems: [] };
  },

  check({ desired, current, scope, prepared, run }) {
    const problems: Problem[] = [];
    const bad = patternProblem(desired.key);
    if (bad) problems.push({ path: desired.path, message: `tag protection "${desired.key}": ${bad}` });
    const f = desired.fields;
    // CreateTagProtection: 400 "both whitelist_usernames and whitelist_teams are empty" (Gitea v1.23.8 routers/api/v1/repo/tag.go l.421–424).
    if (!current && nameSet(f.whitelist_usernames).length === 0 && nameSet(f.whitelist_teams).length === 0)
      problems.push({ path: desired.path, message: `tag protection "${desired.key}" does not exist yet: name at least one user (whitelist_usernames) or team (whitelist_teams) allowed to push matching tags (the server refuses a new protection without either)` });
    if (scope.repo && !scope.repo.ownerIsOrg && nameSet(f.whitelist_teams).length > 0)
      problems.push({ path: [...desired.path, 'whitelist_teams'], message: `whitelist_teams: ${scope.name} is owned by a user, and Gitea ignores team lists there` });
    problems.push(...allowlistProblems(desired, prepared, scope, run.declared.get(desired)));
    return problems;
  },
} satisfies Planning<TagProtectionTypes>;

export const safety = {
  readOnlyReason(scope) {
    return scope.repo?.archived ? `${scope.name} is archived: Gitea refuses tag-protection writes (423)` : undefined;
  },

  /** At apply, the accounts as they are now: one gone since the plan (or without access) refuses the saved plan. Fails closed. */
  guard({ change, intent, scope, run }) {
    if (change.action === 'delete') return undefined;
    const known = run.tagAccounts.get(scope.name);
    if (!known) return 'the users and teams it names were not looked up on the server, so forgeform cannot tell that Gitea would take the protection';
    const problems = allowlistProblems({ key: change.key, fields: intent.fields, path: [] }, known, scope);
    return problems.length ? problems.map((p) => p.message).join('; ') : undefined;
  },
} satisfies Safety<TagProtectionTypes>;
