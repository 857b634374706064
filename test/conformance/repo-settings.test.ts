/**
 * Conformance of the repository settings routes (issue 21): PATCH /repos/{o}/{r} and the topics
 * routes, read tag by tag (Gitea v1.21.11, v1.22.6, v1.23.8, v1.24.7, v1.25.4, main 423cdd4d94 as 1.26;
 * Forgejo v7.0.16, v11.0.15, v15.0.3), each fact with its citation, against the sandbox playing each
 * release. Handlers: routers/api/v1/repo/repo.go (Edit, updateBasicProperties, updateRepoUnits,
 * updateRepoArchivedState), routers/api/v1/repo/topic.go; helpers: models/repo/topic.go,
 * services/convert/repository.go (ToRepo). Each fact uses a repository of its own.
 */
import type { Flavour } from '../../src/sandbox/flavours/flavour.js';
import { available, type Availability } from '../../src/sandbox/flavours/releases.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';
import { checkFacts } from './run-facts.js';


interface RepoAnswer {
  description: string;
  archived: boolean;
  has_pull_requests: boolean;
  allow_rebase: boolean;
  allow_squash_merge: boolean;
  default_merge_style: string;
  topics?: string[] | null;
}

const on = (f: Flavour, a: Availability): boolean => available(f, a);
/** Gitea 1.25 applies pull-request settings only with has_pull_requests: true in the same body. */
const PR_SETTINGS_NEED_FLAG: Availability = { gitea: { since: '1.25', until: '1.25' } };
/** The Repository answer has `topics` (modules/structs/repo.go): Gitea 1.23+, Forgejo 8+ (v8.0.0 l.117, convert/repository.go l.240; not in v7.0.16). */
const TOPICS_IN_ANSWER: Availability = { gitea: { since: '1.23' }, forgejo: { since: 8 } };

const REPOS = ['pr-alone', 'pr-flag', 'pr-off', 'topics-clean', 'topics-bad', 'topics-many', 'answer', 'attic'];

export const SEED: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'rs', owners: ['root'] }],
  repos: REPOS.map((name) => ({ name: `rs/${name}`, ...(name === 'attic' ? { archived: true, description: 'old' } : {}) })),
};

const repo = async (h: Harness, name: string) => (await h.call<RepoAnswer>('GET', `repos/rs/${name}`)).json;

export const FACTS: Fact[] = [
  {
    id: 'a pull-request setting alone (no has_pull_requests) is kept everywhere but Gitea 1.25, which ignores it',
    cite: 'repo.go updateRepoUnits: Gitea v1.21.11 l.871 and v1.24.7 l.887 `if currHasPullRequests || newHasPullRequests`; v1.25.4 l.884 `if opts.HasPullRequests != nil`; main l.867-905 (applied, `*changed`); Forgejo v7.0.16 l.887, v15.0.3 l.983',
    expected: (f) => ({ status: 200, allow_rebase: on(f, PR_SETTINGS_NEED_FLAG) }),
    async observe(h) {
      const r = await h.call('PATCH', 'repos/rs/pr-alone', { body: { allow_rebase: false } });
      return { status: r.status, allow_rebase: (await repo(h, 'pr-alone')).allow_rebase };
    },
  },
  {
    id: 'a pull-request setting with has_pull_requests: true is kept on every release',
    cite: 'repo.go updateRepoUnits: Gitea v1.21.11 l.868-930, v1.25.4 l.884-950, Forgejo v15.0.3 l.980-1040 (config.AllowSquash = *opts.AllowSquash)',
    expected: () => ({ allow_squash_merge: false, default_merge_style: 'squash' }),
    async observe(h) {
      await h.call('PATCH', 'repos/rs/pr-flag', { body: { has_pull_requests: true, allow_squash_merge: false, default_merge_style: 'squash' } });
      const r = await repo(h, 'pr-flag');
      return { allow_squash_merge: r.allow_squash_merge, default_merge_style: r.default_merge_style };
    },
  },
  {
    id: 'with the pull-request unit disabled, the answer carries defaults: every flag false, style merge',
    cite: 'services/convert/repository.go ToRepo: Gitea v1.25.4 l.93-120 (hasPullRequests := false … defaultMergeStyle := MergeStyleMerge), v1.21.11 l.89; Forgejo v15.0.3 l.95',
    expected: () => ({ has_pull_requests: false, allow_rebase: false, default_merge_style: 'merge' }),
    async observe(h) {
      await h.call('PATCH', 'repos/rs/pr-off', { body: { has_pull_requests: false } });
      const r = await repo(h, 'pr-off');
      return { has_pull_requests: r.has_pull_requests, allow_rebase: r.allow_rebase, default_merge_style: r.default_merge_style };
    },
  },
  {
    id: 'PUT topics trims and lower-cases, drops empty and repeated names: 204, stored sorted',
    cite: 'topic.go UpdateTopics Gitea v1.25.4 l.75-130 (v1.21.11 l.74); models/repo/topic.go SanitizeAndValidateTopics v1.25.4 l.68-92 (l.74 TrimSpace(ToLower)), Forgejo v15.0.3 l.49-55; syncTopicsInRepository Asc("topic.name")',
    expected: () => ({ status: 204, topics: ['cli', 'go'] }),
    async observe(h) {
      const r = await h.call('PUT', 'repos/rs/topics-clean/topics', { body: { topics: [' Go ', 'go', 'CLI', ''] } });
      const t = (await h.call<{ topics: string[] }>('GET', 'repos/rs/topics-clean/topics')).json.topics;
      return { status: r.status, topics: [...t].sort() };
    },
  },
  {
    id: 'PUT topics with an invalid name: 422 naming it, nothing stored',
    cite: 'topic.go UpdateTopics Gitea v1.25.4 l.115-121, v1.21.11 l.114-120, Forgejo v15.0.3 l.114-120; topicPattern ^[a-z0-9][-.a-z0-9]*$ (models/repo/topic.go:25)',
    expected: () => ({ status: 422, body: { invalidTopics: ['-bad'], message: 'Topic names are invalid' }, topics: [] }),
    async observe(h) {
      const r = await h.call<Record<string, unknown>>('PUT', 'repos/rs/topics-bad/topics', { body: { topics: ['ok', '-bad'] } });
      const t = (await h.call<{ topics: string[] }>('GET', 'repos/rs/topics-bad/topics')).json.topics;
      return { status: r.status, body: { invalidTopics: r.json.invalidTopics, message: r.json.message }, topics: t };
    },
  },
  {
    id: 'PUT of 26 topics: 422 "Exceeding maximum number of topics per repo"',
    cite: 'topic.go UpdateTopics Gitea v1.25.4 l.107-113 (len(validTopics) > 25), v1.21.11 l.106-112, Forgejo v15.0.3 l.106-112',
    expected: () => ({ status: 422, message: 'Exceeding maximum number of topics per repo' }),
    async observe(h) {
      const r = await h.call<{ message: string }>('PUT', 'repos/rs/topics-many/topics', { body: { topics: Array.from({ length: 26 }, (_, i) => `t${i}`) } });
      return { status: r.status, message: r.json.message };
    },
  },
  {
    id: 'the repository answer carries topics from Gitea 1.23 and Forgejo 11',
    cite: 'modules/structs/repo.go Repository: `Topics []string json:"topics"` in v1.23.8 and Forgejo v11.0.15, not in v1.22.6 nor Forgejo v7.0.16; convert/repository.go v1.25.4 l.243',
    expected: (f) => (on(f, TOPICS_IN_ANSWER) ? ['x'] : 'absent'),
    async observe(h) {
      await h.call('PUT', 'repos/rs/answer/topics', { body: { topics: ['x'] } });
      const r = await repo(h, 'answer');
      return 'topics' in r ? r.topics : 'absent';
    },
  },
  {
    id: 'an archived repository is edited (no mustNotBeArchived on PATCH), un-archived in the same body',
    cite: 'api.go Gitea v1.25.4 l.1193 `Patch(reqToken(), reqAdmin(), bind(api.EditRepoOption{}), repo.Edit)`; repo.go Edit l.634-646 (updateBasicProperties, updateRepoUnits, then updateRepoArchivedState); v1.21.11 l.626-634; Forgejo v15.0.3 l.672-683',
    expected: () => ({ status: 200, description: 'back', archived: false }),
    async observe(h) {
      const r = await h.call('PATCH', 'repos/rs/attic', { body: { description: 'back', archived: false } });
      const now = await repo(h, 'attic');
      return { status: r.status, description: now.description, archived: now.archived };
    },
  },
];


checkFacts('%s: repository settings conform to the source', SEED, FACTS);
