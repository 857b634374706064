/** Request bodies of the organisation routes (`modules/structs/org.go`). */
import { f, option, p, ps, VISIBILITY_RULE } from '../../http/options.js';

export const CreateOrgOption = option('CreateOrgOption', [
  f('username', 'string', { go: 'UserName', rules: ['Required', 'Username', 'MaxSize(40)'] }),
  f('full_name', 'string', { rules: ['MaxSize(100)'] }),
  f('email', 'string', { rules: ['MaxSize(255)'] }),
  f('description', 'string', { rules: ['MaxSize(255)'] }),
  f('website', 'string', { rules: ['ValidUrl', 'MaxSize(255)'] }),
  f('location', 'string', { rules: ['MaxSize(50)'] }),
  f('visibility', 'string', { rules: [VISIBILITY_RULE] }),
  f('repo_admin_change_team_access', 'bool'),
]);

/** Newest generation: every field a pointer (only given fields change). */
export const EditOrgOption = option('EditOrgOption', [
  ps('full_name', ['MaxSize(100)']),
  ps('email', ['MaxSize(255)']),
  ps('description', ['MaxSize(255)']),
  ps('website', ['ValidUrl', 'MaxSize(255)']),
  ps('location', ['MaxSize(50)']),
  ps('visibility', [VISIBILITY_RULE]),
  p('repo_admin_change_team_access', 'bool'),
]);
