import type { CurrentObject, KindExport } from '../../model/index.js';
import { isOwners } from './read.js';
import { comparableUnits, isAdminLevel } from './units.js';

/**
 * A team as config: what plans it again with no change. Below admin, its units_map (the team's own
 * permission reads back differently by release, see units.ts); for the Owners team only what the server
 * lets change (description, members).
 */
function toConfig(current: CurrentObject): Record<string, unknown> {
  const f = current.fields;
  const out: Record<string, unknown> = {};
  if (f.description) out.description = f.description;
  if (!isOwners(current)) {
    if (isAdminLevel(f.permission)) out.permission = 'admin';
    else out.units_map = comparableUnits(f.units_map);
    if (f.includes_all_repositories === true) out.includes_all_repositories = true;
    if (f.can_create_org_repo === true) out.can_create_org_repo = true;
    if (Array.isArray(f.repositories) && f.includes_all_repositories !== true) out.repositories = f.repositories;
  }
  if (Array.isArray(f.members)) out.members = f.members;
  return out;
}

export const exporting = { toConfig } satisfies KindExport;
