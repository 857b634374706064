/**
 * Request bodies of the team routes (`modules/structs/org_team.go`). `Name` is `MaxSize(255)` from
 * Gitea 1.22 (#31410) and Forgejo 8; Gitea 1.21 and Forgejo 7 declare `MaxSize(30)`
 * (flavours/releases.ts FIELD_VARIANTS).
 */
import { f, option, p } from '../../http/options.js';

export const CreateTeamOption = option('CreateTeamOption', [
  f('name', 'string', { rules: ['Required', 'AlphaDashDot', 'MaxSize(255)'] }),
  f('description', 'string', { rules: ['MaxSize(255)'] }),
  f('includes_all_repositories', 'bool'),
  f('permission', 'string'),
  f('units', 'string[]'),
  f('units_map', 'map'),
  f('can_create_org_repo', 'bool'),
]);

export const EditTeamOption = option('EditTeamOption', [
  f('name', 'string', { rules: ['AlphaDashDot', 'MaxSize(255)'] }),
  p('description', 'string', { rules: ['MaxSize(255)'] }),
  p('includes_all_repositories', 'bool'),
  f('permission', 'string'),
  f('units', 'string[]'),
  f('units_map', 'map'),
  p('can_create_org_repo', 'bool'),
]);
