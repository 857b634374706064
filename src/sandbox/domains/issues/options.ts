/** Request bodies of the issue routes (`modules/structs/issue.go`, `issue_label.go`). */
import { f, option, p } from '../../http/options.js';

export const CreateIssueOption = option('CreateIssueOption', [
  f('title', 'string', { rules: ['Required'] }),
  f('body', 'string'),
  f('ref', 'string'),
  f('assignee', 'string'),
  f('assignees', 'string[]'),
  p('due_date', 'datetime', { go: 'Deadline' }),
  f('milestone', 'int'),
  f('labels', 'int[]'),
  f('closed', 'bool'),
]);

export const EditIssueOption = option('EditIssueOption', [
  f('title', 'string'),
  p('body', 'string'),
  p('ref', 'string'),
  p('assignee', 'string'),
  f('assignees', 'string[]'),
  p('milestone', 'int'),
  p('state', 'string'),
  p('due_date', 'datetime', { go: 'Deadline' }),
  p('unset_due_date', 'bool', { go: 'RemoveDeadline' }),
  p('content_version', 'int'),
  f('projects', 'int[]'),
]);

/** `labels` is `[]interface{}`: numbers are ids, strings are names (checked by the handler). */
export const IssueLabelsOption = option('IssueLabelsOption', [f('labels', 'any[]')]);

/** `CreateIssueCommentOption` and `EditIssueCommentOption` (`modules/structs/issue_comment.go`). */
export const CreateIssueCommentOption = option('CreateIssueCommentOption', [f('body', 'string', { rules: ['Required'] })]);
export const EditIssueCommentOption = option('EditIssueCommentOption', [f('body', 'string', { rules: ['Required'] })]);
