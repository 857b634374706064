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

import { describeServer, serverHas, type Availability, type ServerInfo } from '../../model/index.js';

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

/**
 * Where each release decides what a team below admin given no unit gets (routers/api/v1/org/team.go, read
 * in every tag): CreateTeam answers **500** "units permission should not be empty" when neither `units_map`
 * nor `units` is non-empty, and EditTeam replaces the units only when one of them is, so an empty one keeps
 * the units the team has. The same rule in every release; the lines per tag (create, then edit). Forgejo
 * v8.0.3 has v7.0.16's lines, v9.0.3–v12.0.4 v11.0.15's, v13.0.5–v14.0.5 v15.0.3's.
 */
const NO_UNITS_AT: readonly (readonly [Availability, string])[] = [
  [{ gitea: { until: '1.21' } }, 'v1.21.11 routers/api/v1/org/team.go:235 CreateTeam, :324–328 EditTeam'],
  [{ gitea: { since: '1.22', until: '1.23' } }, 'v1.23.8 routers/api/v1/org/team.go:236 CreateTeam, :325–329 EditTeam'],
  [{ gitea: { since: '1.24', until: '1.25' } }, 'v1.25.4 routers/api/v1/org/team.go:226 CreateTeam, :310–315 EditTeam'],
  [{ gitea: { since: '1.26' } }, 'main 423cdd4d94 routers/api/v1/org/team.go:230 CreateTeam, :314–319 EditTeam'],
  [{ forgejo: { until: '8' } }, 'v7.0.16 routers/api/v1/org/team.go:235 CreateTeam, :324–328 EditTeam'],
  [{ forgejo: { since: '9', until: '12' } }, 'v11.0.15 routers/api/v1/org/team.go:239 CreateTeam, :328–332 EditTeam'],
  [{ forgejo: { since: '13' } }, 'v15.0.3 routers/api/v1/org/team.go:239 CreateTeam, :329–333 EditTeam'],
];

/**
 * Why a team below admin declared with `units: []`, `units_map: {}` or every unit at `none` is refused:
 * forgeform sends the units above none (a unit at none is no unit, comparableUnits), so it would send an
 * empty `units_map`, which the server refuses on create (500) and ignores on edit (the team keeps its
 * units: a change on every plan). Undefined when the declared units give something.
 */
export function noUnitsProblem(field: 'units' | 'units_map', units: Record<string, string>, server: ServerInfo | undefined): string | undefined {
  if (Object.keys(units).length > 0) return undefined;
  const where = server ? `${describeServer(server)} (${NO_UNITS_AT.find(([a]) => serverHas(server, a))?.[1] ?? 'routers/api/v1/org/team.go CreateTeam, EditTeam'})` : 'the server (routers/api/v1/org/team.go CreateTeam, EditTeam, every release)';
  return `${field}: the team gets no unit above none, and ${where} answers 500 "units permission should not be empty" when such a team is created and keeps the team's units when it is edited: give it at least one unit at read or write (or permission: admin, or delete the team)`;
}

/**
 * Releases that take a team's permission below admin from its units: CreateTeam and EditTeam set it to
 * `MinUnitAccessMode(units_map)`, the lowest level above none with the external wiki and tracker left out,
 * and a team whose permission comes out admin gets every unit at admin (attachAdminTeamUnits) whatever the
 * map said. Gitea v1.21.11 routers/api/v1/org/team.go:218, :239 (create), :309, :330 (edit), models/unit/unit.go:354;
 * v1.23.8 team.go:219, :240, :310, :331, unit.go:385; Forgejo v7.0.16 team.go:218, :239, :309, :330; v11.0.15
 * :222, :243, :313, :334; v15.0.3 :222, :243, :314, :335 (unit.go MinUnitAccessMode in each). Gitea 1.24 keeps
 * the declared permission (v1.24.7 team.go:209, no MinUnitAccessMode).
 */
export const PERMISSION_FROM_UNITS: Availability = { gitea: { until: '1.23' }, forgejo: {} };

/** `MinUnitAccessMode`: the lowest level above none, the external units (read only) left out; none when there is none. */
export function lowestUnitLevel(units: Record<string, string>): string {
  const levels = Object.entries(units)
    .filter(([k, v]) => !k.endsWith('.ext_wiki') && !k.endsWith('.ext_issues') && v !== 'none')
    .map(([, v]) => UNIT_LEVELS.findIndex((l) => l === v));
  return levels.length ? (UNIT_LEVELS[Math.min(...levels)] ?? 'none') : 'none';
}

/**
 * Why a team below admin whose units are all at admin (the external ones aside) is refused on a release
 * that takes its permission from them: the server makes it an admin team, with every unit at admin, so
 * the units read back differ from the declared ones on every plan. Undefined elsewhere.
 */
export function adminByUnitsProblem(field: 'units' | 'units_map', units: Record<string, string>, server: ServerInfo | undefined): string | undefined {
  if (!server || !serverHas(server, PERMISSION_FROM_UNITS) || lowestUnitLevel(units) !== 'admin') return undefined;
  return `${field}: every unit the team gets is at admin (the external wiki and tracker aside), and ${describeServer(server)} then makes it an admin team with every unit at admin (routers/api/v1/org/team.go CreateTeam, EditTeam: MinUnitAccessMode): give one unit read or write, or write permission: admin without units`;
}
