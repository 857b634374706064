/**
 * Seed key `repos`: repositories with their branches, units and collaborators. Each domain's
 * `repos[]` keys load through the registry: `early` ones (labels, milestones, projects) as the
 * repository is created, `late` ones (branch protections, issues — they depend on the final
 * permissions) once every repository exists and the teams have their repositories.
 */
import type { SeedContext } from '../../core/domain.js';
import { isFailure } from '../../core/failure.js';
import { domains } from '../../core/registry.js';
import { bool, list, obj, oneOf, requireUser, SeedError, str, strings, type Obj } from '../../core/seed-shape.js';
import { nowIso, type RepoRecord } from '../../core/state.js';
import { createRepo } from './service.js';

export interface SeedRepo {
  /** `owner/name`; the owner must be a seeded user or organisation. */
  name: string;
  description?: string;
  website?: string;
  private?: boolean;
  archived?: boolean;
  template?: boolean;
  /** Default `main`. */
  default_branch?: string;
  /** Branch names besides the default branch. */
  branches?: string[];
  /** Default false: the repository has its default branch. true = a freshly created empty repository. */
  empty?: boolean;
  has_issues?: boolean;
  has_pull_requests?: boolean;
  has_wiki?: boolean;
  /** The Actions unit (default on, as in DefaultRepoUnits). */
  has_actions?: boolean;
  /** `read` | `write` | `admin` per user name. */
  collaborators?: Record<string, string>;
  /** A label template (`Default`, `Advanced`) created first, as `issue_labels` on create does. */
  label_template?: string;
  /** Topics, stored as PUT /topics stores them (lower-case, sorted). */
  topics?: string[];
}

const REPO_KEYS = [
  'name', 'description', 'website', 'private', 'archived', 'template', 'default_branch', 'branches', 'empty', 'has_issues', 'has_pull_requests',
  'has_wiki', 'has_actions', 'collaborators', 'label_template', 'topics',
];

export function loadReposSeed(cx: SeedContext): void {
  const { state } = cx;
  const nested = domains().flatMap((d) => d.seed?.repo ?? []);
  const early = nested.filter((n) => n.phase !== 'late');
  const late = nested.filter((n) => n.phase === 'late');
  const keys = [...REPO_KEYS, ...nested.flatMap((n) => n.keys)];
  const later: { repo: RepoRecord; o: Obj; p: string }[] = [];
  list(cx.top.repos, 'repos').forEach((r, i) => {
    const p = `repos[${i}]`;
    const o = obj(r, p, keys);
    const full = str(o.name, `${p}.name`, true)!;
    const m = /^([^/]+)\/([^/]+)$/.exec(full);
    if (!m) throw new SeedError(`${p}.name: expected owner/name, got ${JSON.stringify(full)}`);
    const owner = state.ownerByName(m[1]!);
    if (!owner) throw new SeedError(`${p}.name: no user or organisation ${JSON.stringify(m[1])} in the seed`);
    const empty = bool(o.empty, `${p}.empty`) ?? false;
    const res = createRepo(state, owner.id, {
      name: m[2]!,
      description: str(o.description, `${p}.description`),
      private: bool(o.private, `${p}.private`),
      template: bool(o.template, `${p}.template`),
      default_branch: str(o.default_branch, `${p}.default_branch`),
      issue_labels: str(o.label_template, `${p}.label_template`),
      auto_init: !empty,
    });
    if (isFailure(res)) throw new SeedError(`${p}: ${res.message}`);
    const repo = res;
    repo.website = str(o.website, `${p}.website`) ?? '';
    const topics = strings(o.topics, `${p}.topics`).map((t) => t.trim().toLowerCase());
    if (topics.length) repo.topics = [...new Set(topics)].sort();
    for (const b of strings(o.branches, `${p}.branches`)) if (!repo.branches.includes(b)) repo.branches.push(b);
    if (repo.branches.length > 0) repo.empty = false;
    repo.units.hasIssues = bool(o.has_issues, `${p}.has_issues`) ?? true;
    repo.units.hasPullRequests = bool(o.has_pull_requests, `${p}.has_pull_requests`) ?? true;
    repo.units.hasWiki = bool(o.has_wiki, `${p}.has_wiki`) ?? true;
    repo.units.hasActions = bool(o.has_actions, `${p}.has_actions`) ?? true;
    if (o.collaborators !== undefined && o.collaborators !== null) {
      const collabs = obj(o.collaborators, `${p}.collaborators`, Object.keys(o.collaborators));
      for (const [name, perm] of Object.entries(collabs)) {
        const u = requireUser(state, name, `${p}.collaborators.${name}`);
        const permission = oneOf(perm, `${p}.collaborators.${name}`, ['read', 'write', 'admin'] as const)!;
        repo.collaborators.push({ userId: u.id, permission });
      }
    }
    for (const n of early) n.load(cx, repo, o, p);
    later.push({ repo, o, p });
  });

  for (const then of cx.afterRepos) then();

  for (const { repo, o, p } of later) {
    for (const n of late) n.load(cx, repo, o, p);
    repo.archived = bool(o.archived, `${p}.archived`) ?? false;
    if (repo.archived) repo.archivedAt = nowIso();
  }
}
