import { asSet, configEntry, field, inGitea, objectSchema, only, serverFields, set, str, text } from '../fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';
import { serverDate } from './due-date.js';

/** An issue's config: the fields of an existing issue it manages, and how its labels are compared. */
export const entries: EntrySpec[] = [
  // Label names, compared by the labels_mode rule (see compare in read.ts); a write answer is not comparable.
  field(
    { name: 'labels', type: 'set', normalize: asSet, readBack: false },
    {
      title: 'Labels',
      description:
        "Label names, resolved among the repository's labels and, for organisation repositories, the organisation's labels (including labels this config creates or renames). Two labels of one exclusive scope are an error: Gitea would keep only one.",
    },
  ),
  configEntry('labels_mode', {
    title: 'Labels mode',
    description: 'add (default): only adds the listed labels, leaving others on the issue. exact: the issue ends with exactly these labels (an empty list removes all).',
    type: 'string',
    enum: ['add', 'exact'],
    default: 'add',
  }),
  str('state', { title: 'State', description: 'open or closed.', enum: ['open', 'closed'] }),
  str('title', { title: 'Title', description: 'The issue title; Gitea cannot empty it.', minLength: 1 }),
  text('body', {
    title: 'Body',
    description: 'The issue description (Markdown). An edit carries the content version seen at plan time: if someone edited the body since, apply refuses that issue.',
  }),
  field(
    { name: 'milestone', type: 'scalar', normalize: (v) => (v === undefined || v === null ? null : String(v)) },
    {
      title: 'Milestone',
      description: 'Title of a milestone of the repository (resolved to its id); null removes the milestone.',
      type: ['string', 'null'],
      minLength: 1,
    },
  ),
  set('assignees', { title: 'Assignees', description: 'User names; the set replaces the current assignees ([] removes all).' }),
  // The day as the server writes it, in its own zone (see due-date.ts).
  field(
    { name: 'due_date', type: 'scalar', normalize: serverDate },
    {
      title: 'Due date',
      description: 'A calendar date (YYYY-MM-DD); Gitea keeps only the date. null removes it.',
      type: ['string', 'null'],
      pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
      patternErrorMessage: 'must be a date like "2026-12-31"',
    },
  ),
  // In no release (not in EditIssueOption of Gitea 1.25.4, main of 2026-04, any Forgejo): only the sandbox's gitea@main (1.27.0).
  only(
    inGitea('1.27'),
    field(
      { name: 'projects', type: 'set', normalize: (v) => asSet(v).map(Number).sort((a, b) => a - b) },
      { title: 'Projects', description: "Project ids; the list replaces the issue's projects.", items: { type: 'integer', minimum: 1 } },
    ),
  ),
  str('ref', { title: 'Ref', description: 'Branch or tag the issue refers to.' }),
];

export const fields = serverFields(entries);

/** The issue definition; repos.*.issues, which holds issues, belongs to the repository's kind. */
export const fragment: SchemaFragment = {
  definitions: {
    issue: objectSchema({ title: 'Issue', description: 'The managed fields of one existing issue.' }, entries),
  },
};
