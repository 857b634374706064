/** Creating repositories (`repo_service.CreateRepository`), for the routes, adoption and the seed loader. */
import { nowIso, type RepoRecord, type SandboxState } from '../../core/state.js';
import { LABEL_TEMPLATES } from '../labels/templates.js';
import { checkUsableName, failure, type Failure } from '../../core/failure.js';
import { CreateRepoOption } from './options.js';
import type { FormOf } from '../../http/options.js';
import { readmeTemplates } from './readmes.js';

export const RESERVED_REPO_NAMES = new Set(['.', '..', '-']);
export const RESERVED_REPO_PATTERNS = ['*.wiki', '*.git', '*.rss', '*.atom'];

/** `CreateRepoOption` fields, as bound. */
export type CreateRepoInput = FormOf<typeof CreateRepoOption>;

/** `repo_service.CreateRepository`: name checks, 409 for a taken name, template labels. */
export function createRepo(state: SandboxState, ownerId: number, input: CreateRepoInput): RepoRecord | Failure {
  const unusable = checkUsableName(input.name, RESERVED_REPO_NAMES, RESERVED_REPO_PATTERNS);
  if (unusable) return unusable;
  if (state.repoByName(ownerId, input.name)) return failure(409, 'The repository with the same name already exists.');
  const template = input.issue_labels ? (Object.hasOwn(LABEL_TEMPLATES, input.issue_labels) ? LABEL_TEMPLATES[input.issue_labels] : undefined) : [];
  if (!template) return failure(422, `failed to load label template file "${input.issue_labels}": label template not found`);
  const now = nowIso();
  const defaultBranch = input.default_branch || 'main';
  const repo: RepoRecord = {
    id: state.nextId('repo'),
    ownerId,
    name: input.name,
    description: input.description ?? '',
    website: '',
    private: input.private ?? false,
    template: input.template ?? false,
    archived: false,
    archivedAt: null,
    empty: !input.auto_init,
    branches: input.auto_init ? [defaultBranch] : [],
    defaultBranch,
    objectFormatName: input.object_format_name || 'sha1',
    units: { hasIssues: true, hasWiki: true, hasPullRequests: true, hasProjects: true, hasReleases: true, hasPackages: true, hasActions: true },
    collaborators: [],
    createdAt: now,
    updatedAt: now,
  };
  state.data.repos.push(repo);
  for (const t of template) {
    state.data.labels.push({
      id: state.nextId('label'),
      repoId: repo.id,
      orgId: 0,
      name: t.name,
      color: `#${t.color}`,
      description: t.description,
      exclusive: t.exclusive,
      archivedAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }
  return repo;
}

/**
 * `repo.CreateUserRepo`: the readme check (only with auto_init; an empty name is `Default`), then the
 * repository service. routers/api/v1/repo/repo.go: Gitea v1.21.11 l.235–243, v1.25.4 l.242–250, main
 * l.243–251; Forgejo v7.0.16 l.238–246, v15.0.3 l.258–266. The list in the message is Go's `%v` of a []string.
 */
export function createRepoForOwner(state: SandboxState, ownerId: number, input: CreateRepoInput): RepoRecord | Failure {
  const readme = input.auto_init && !input.readme ? 'Default' : input.readme;
  const known = readmeTemplates(state);
  if (input.auto_init && readme && !known.includes(readme)) return failure(400, `readme template does not exist, available templates: [${known.join(' ')}]`);
  return createRepo(state, ownerId, input);
}
