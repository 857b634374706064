// A team's permission and units as the server stores and answers them, release by release
// (facts with citations: test/conformance/teams.test.ts, src/sandbox/NOTES.md "Teams").
//
// - `permission: admin` makes an admin team: its units are all set to admin by the server and every
//   unit reads back at admin (routers/api/v1/org/team.go attachAdminTeamUnits; GetUnitsMap), so
//   units are not managed for it.
// - Below admin, what a member may do is in the units. `units` (deprecated upstream) gives each listed
//   unit the team's permission; `units_map` gives each unit its own level. forgeform sends both as one
//   `units_map` (every release here takes it) and compares that.
// - The team's own permission below admin is not comparable across releases: Gitea 1.24+ stores it as
//   `none` (#34128, v1.24.7 team.go l.209), older Gitea and Forgejo store the lowest unit level
//   (MinUnitAccessMode, v1.21.11 team.go l.216-219). Only "admin or not" is compared.

/** Every repository unit a team can be given (models/unit/unit.go; the same in every release read). */
export const UNIT_KEYS = ['repo.code', 'repo.issues', 'repo.pulls', 'repo.releases', 'repo.wiki', 'repo.ext_wiki', 'repo.ext_issues', 'repo.projects', 'repo.packages', 'repo.actions'] as const;

export const UNIT_LEVELS = ['none', 'read', 'write', 'admin'] as const;

/** The permissions a team is declared with. */
export const PERMISSIONS = ['read', 'write', 'admin'] as const;

/** The team's own permission as answered: admin-level (admin, and the Owners team's owner) or not. */
export const isAdminLevel = (permission: unknown): boolean => permission === 'admin' || permission === 'owner';

/**
 * A units map as compared: units at `none` left out (a unit the team does not have and one listed at
 * none give the same access: models/organization/team.go UnitAccessMode answers none for both), keys
 * lower-cased (TypeFromKey compares them case-insensitively), sorted.
 */
export function comparableUnits(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const levels = Object.entries(value).map(([key, level]) => [key.toLowerCase(), String(level ?? 'none').toLowerCase()] as const);
  const out: Record<string, string> = {};
  for (const [key, level] of levels.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) if (level !== 'none') out[key] = level;
  return out;
}

/** The units a non-admin team is declared with, as one map: `units` at the permission, `units_map` over them. */
export function declaredUnits(permission: string | undefined, units: readonly string[] | undefined, unitsMap: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!units && !unitsMap) return undefined;
  const level = permission ?? 'read';
  const out: Record<string, string> = {};
  for (const u of units ?? []) out[u] = level;
  Object.assign(out, unitsMap ?? {});
  return comparableUnits(out);
}

/**
 * The permission a PATCH carries with units or includes_all_repositories: what was declared, else what
 * the team has (an admin-level one as admin; a level below admin as answered, which the server reads
 * back to the same: none, or the lowest unit level that units_map sets again on Gitea ≤ 1.23 and Forgejo).
 */
export function permissionToSend(declared: unknown, current: unknown): string {
  if (typeof declared === 'string' && declared) return declared;
  if (isAdminLevel(current)) return 'admin';
  return typeof current === 'string' && current ? current : 'read';
}
