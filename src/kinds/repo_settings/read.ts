import type { Shape } from '../../gitea/answer.js';
import { apiPath } from '../../gitea/path.js';
import { normalizeFields, shapeOfFields } from '../fields.js';
import type { Reading } from '../../model/index.js';
import { fields } from './fields.js';
import type { RepoSettingsTypes, ServerRepo } from './types.js';

export { fields } from './fields.js';

/** A repository as answered (Repository of modules/structs/repo.go): the settings are its own keys. */
export const shape = shapeOfFields(fields, { id: 'id', full_name: 'string' });

/** GET /repos/{o}/{r}/topics (routers/api/v1/repo/topic.go ListTopics): `{"topics": [...]}`. */
const TOPICS: Shape = { topics: 'string[]?' };

/** Only the keys the answer has: a release without a key (topics before Gitea 1.23) has no value to compare. */
function fromServer(r: ServerRepo) {
  return { key: String(r.full_name), id: Number(r.id), fields: normalizeFields(fields, r, true) };
}

export const reading = {
  fields,
  shape,

  /**
   * The repository GET, which the scope resolution made already (the same cached request, no other).
   * Its `topics` key is answered from Gitea 1.23 and Forgejo 8 (Repository of modules/structs/repo.go: Forgejo
   * v8.0.0 l.117, services/convert/repository.go l.240; #31127); before (Gitea 1.21, 1.22, Forgejo 7) the topics
   * are one more GET, made only where topics are declared.
   */
  async read({ scope, ctx, desired }) {
    const path = apiPath(...scope.segments);
    const raw = await ctx.cachedGet<ServerRepo>(path, { object: `repository ${scope.name}`, shape });
    const wantsTopics = !desired || desired.some((d) => 'topics' in d.fields);
    if (Array.isArray(raw.topics) || !wantsTopics) return [fromServer(raw)];
    const t = await ctx.client.get<{ topics: string[] | null }>(apiPath(...scope.segments, 'topics'), { object: `topics of ${scope.name}`, shape: TOPICS });
    return [fromServer({ ...raw, topics: t.topics ?? [] })];
  },

  fromServer,
} satisfies Reading<RepoSettingsTypes>;
