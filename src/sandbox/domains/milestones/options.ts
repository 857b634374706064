/** Request bodies of the milestone routes (`modules/structs/issue_milestone.go`). */
import { f, option, p } from '../../http/options.js';

export const CreateMilestoneOption = option('CreateMilestoneOption', [
  f('title', 'string'),
  f('description', 'string'),
  p('due_on', 'datetime', { go: 'Deadline' }),
  f('state', 'string'),
]);
