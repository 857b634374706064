import type { OrgConfig, RepoConfig } from '../../config/types.js';
import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { KindTypes, Reading } from '../../model/index.js';
import type { LabelRun } from './plan.js';
import { fields } from './fields.js';

export { fields, normalizeColor } from './fields.js';

/** A label as answered (modules/structs/issue_label.go): its id is what issues are given. */
export const shape = shapeOfFields(fields, { id: 'id', name: 'string' });

/** A label as the server answers it (its shape checked). */
type ServerLabel = Record<string, unknown> & { id: number; name: string };

/** What a repository's or an organisation's config says of labels (the two sections are alike). */
export type LabelSection = Pick<RepoConfig & OrgConfig, 'labels' | 'label_template'>;

/** What the label kinds are typed by: the labels section of their scope, a label as answered, no lookups, their state per run. */
export type LabelTypes = KindTypes<LabelSection, ServerLabel, undefined, LabelRun>;

function fromServer(r: ServerLabel) {
  return { key: String(r.name), id: Number(r.id), fields: normalizeFields(fields, r, false) };
}

/** Reading labels, from the list of their scope (repository or organisation). */
export const reading = {
  fields,
  shape,

  async read({ scope, ctx }) {
    const raw = await ctx.client.list<ServerLabel>(listPath(scope.segments), { object: `labels of ${scope.name}`, shape });
    return raw.map(fromServer);
  },

  fromServer,
} satisfies Reading<LabelTypes>;

/** The labels of a scope: repos/{owner}/{repo}/labels or orgs/{org}/labels. */
export function listPath(segments: string[]): string {
  return apiPath(...segments, 'labels');
}
