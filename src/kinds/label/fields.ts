import { bool, configEntry, field, objectSchema, serverFields, text, formerNames } from '../fields.js';
import type { EntrySpec, SchemaFragment } from '../../model/index.js';

/** Gitea stores #rrggbb and answers rrggbb: compare lower-case, without '#', 3 digits expanded. */
export function normalizeColor(value: unknown): string {
  let c = String(value ?? '').trim().toLowerCase().replace(/^#/, '');
  if (/^[0-9a-f]{3}$/.test(c)) c = c.replace(/./g, (d) => d + d);
  return c;
}

/** A label's config, in the order the schema and the docs list it: its server fields, then `previously`. */
export const entries: EntrySpec[] = [
  field(
    { name: 'color', type: 'scalar', answer: 'string', normalize: normalizeColor },
    {
      title: 'Colour',
      description: 'Six (or three) hex digits, with or without "#": "ee0701", "#ee0701", "#e07". Quote a value that starts with "#": unquoted, YAML reads it as a comment. Needed to create a label.',
      pattern: '^#?([0-9a-fA-F]{6}|[0-9a-fA-F]{3})$',
      patternErrorMessage: 'must be a colour like "ee0701" or "#ee0701"',
      examples: ['ee0701', '#0e8a16'],
    },
  ),
  text('description', { title: 'Description', description: 'Text shown with the label.' }),
  bool('exclusive', {
    title: 'Exclusive (scoped) label',
    description: 'An issue carries at most one exclusive label of the same scope: the name up to its last "/" (e.g. "priority/high" and "priority/low").',
  }),
  bool('is_archived', { title: 'Archived', description: 'Archived labels stay on their issues but are no longer offered for new ones.' }),
  formerNames('Former names of this label: a label with one of these names is renamed (it keeps its issues) instead of a new label being created.'),
];

export const fields = serverFields(entries);

/** A scope's `label_template` (repositories and organisations alike): the labels it declares are this kind's. */
export const labelTemplateEntry = configEntry('label_template', {
  title: 'Label template',
  description: 'Name of a label template of the server (e.g. "Default" or "Advanced"): its labels are declared as if written under labels, and explicit labels override them field by field.',
  type: 'string',
  minLength: 1,
});

/** The label definition; the sections that hold labels (repos.*.labels, orgs.*.labels) belong to their scopes' kinds. */
export const fragment: SchemaFragment = {
  definitions: {
    label: objectSchema({ title: 'Label', description: 'A label, keyed by its name. A field that is not written is not managed (a new label needs a color).' }, entries),
  },
};
