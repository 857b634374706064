/** API `Label` objects. */
import { goPathEscape } from '../../http/respond.js';
import type { ConvertContext } from '../../core/convert.js';
import type { LabelRecord } from './records.js';
import { repoApiUrl } from '../repos/convert.js';
import { shapeAnswer } from '../../flavours/releases.js';

/** `convert.ToLabel`: colour without `#`; `url` by where the label lives; the keys of the release's `Label`. */
export function toLabel(cx: ConvertContext, label: LabelRecord): Record<string, unknown> {
  let url = '';
  if (label.repoId) {
    const repo = cx.state.repoById(label.repoId);
    if (repo) url = `${repoApiUrl(cx, repo)}/labels/${label.id}`;
  } else {
    const org = cx.state.orgById(label.orgId);
    if (org) url = `${cx.root}api/v1/orgs/${goPathEscape(org.name)}/labels/${label.id}`;
  }
  return shapeAnswer(cx.flavour, 'Label', {
    id: label.id,
    name: label.name,
    exclusive: label.exclusive,
    is_archived: label.archivedAt !== null,
    color: label.color.replace(/^#/, ''),
    description: label.description,
    url,
  });
}
