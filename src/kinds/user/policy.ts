// The entries of `policy` that are the users' (KindMeta.policy): the engine copies them into the plan
// and checks a saved plan's, without knowing what they mean; guards.ts, emails.ts and ops.ts read them.
import type { PolicyEntry } from '../../model/index.js';

declare module '../../model/plan.js' {
  interface PlanPolicy {
    /** Users never deleted, demoted, deactivated or barred from signing in (guards.ts). */
    protected_users: string[];
    /** Users are deleted with ?purge=true: their repositories and the organisations they alone own go too (ops.ts). */
    purge_users: boolean;
    /** Badge slugs the server has that no user the plan reads carries: no API lists badges (badges.ts). */
    badges?: string[];
  }
}

const isStringList = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');

export const userPolicy: Record<string, PolicyEntry> = {
  protected_users: { default: [], is: isStringList, expected: 'a list of user names' },
  purge_users: { default: false, is: (v) => typeof v === 'boolean', expected: 'true or false' },
  badges: { default: [], is: isStringList, expected: 'a list of badge slugs' },
};
