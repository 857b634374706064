import { bool, field, inEither, inForgejo, inGitea, objectSchema, only, serverFields, str, text } from '../fields.js';
import type { EntrySpec, FieldSpec, KindFeature, SchemaFragment } from '../../model/index.js';

/**
 * allow_fast_forward_only_merge: Gitea 1.22 (#27775) and Forgejo 7 (EditRepoOption and Repository of
 * modules/structs/repo.go); Gitea v1.21.11 has neither the option nor the answer key.
 */
const FAST_FORWARD = inEither(inGitea('1.22'), inForgejo('7'));

/** What only some releases can do with a repository's settings: a value the others store but cannot act on. */
export const features = {
  /** The merge style fast-forward-only (MergeStyleFastForwardOnly, models/repo/git.go): not in Gitea v1.21.11, which stores the string and offers no such merge. */
  fastForwardDefault: {
    availability: FAST_FORWARD,
    what: 'default_merge_style: fast-forward-only',
    usedBy: (declared) => (declared.default_merge_style === 'fast-forward-only' ? 'default_merge_style' : undefined),
  },
} satisfies Record<string, KindFeature>;
/**
 * allow_manual_merge, autodetect_manual_merge: every release takes them in EditRepoOption, but only
 * Gitea 1.25 answers them (Repository of modules/structs/repo.go, v1.25.4; not v1.24.7, not Forgejo
 * 15.0.3): elsewhere they cannot be read back, so a value would never be seen to converge.
 */
const MANUAL_MERGE_READ = inGitea('1.25');

/**
 * Topics as Gitea keeps them: SanitizeAndValidateTopics lower-cases and trims each
 * (models/repo/topic.go:68-92, every release), drops empty ones and repeats, and the set is sorted.
 */
export function normalizeTopics(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return [...new Set(value.map((t) => String(t).trim().toLowerCase()).filter((t) => t !== ''))].sort();
}

/** The pull-request settings: Gitea stores them only in a PATCH that also says has_pull_requests: true (updateRepoUnits). */
export const PULL_REQUEST_SETTINGS = [
  'ignore_whitespace_conflicts',
  'allow_merge_commits',
  'allow_rebase',
  'allow_rebase_explicit',
  'allow_squash_merge',
  'allow_fast_forward_only_merge',
  'allow_manual_merge',
  'autodetect_manual_merge',
  'allow_rebase_update',
  'default_delete_branch_after_merge',
  'default_merge_style',
  'default_allow_maintainer_edit',
];

const prSetting = (name: string, title: string, description: string): FieldSpec =>
  bool(name, { title, description: `${description} Needs the pull-request unit (has_pull_requests: true): Gitea keeps pull-request settings only then.` });

/**
 * A repository's settings (EditRepoOption of modules/structs/repo.go, every supported release), in
 * the order plans list them. Only the fields written are compared and written; the repository GET
 * (modules/structs/repo.go Repository) is the read.
 */
export const entries: EntrySpec[] = [
  text('description', { title: 'Description', description: 'The repository\'s description ("" clears it).', maxLength: 2048 }),
  str('website', { title: 'Website', description: 'The repository\'s website URL ("" clears it).', maxLength: 1024 }),
  bool('private', { title: 'Private', description: 'Only collaborators, teams and the owner see the repository. A fork follows its base repository (Gitea overrides the value).' }),
  bool('template', { title: 'Template', description: 'Offer the repository as a template for new repositories.' }),
  bool('archived', {
    title: 'Archived',
    description:
      'An archived repository is read-only: forgeform writes nothing else to it (its other settings, and the changes Gitea refuses there such as branch protections, are withheld with a warning) unless this configuration un-archives it (archived: false): then the un-archiving comes first, and the other changes of the repository wait for it, in the same apply.',
  }),
  str('default_branch', {
    title: 'Default branch',
    description: 'The default branch. Gitea changes it only to a branch that exists (or in an empty repository): otherwise the PATCH is answered 200 and the value stays.',
    minLength: 1,
  }),
  bool('has_issues', { title: 'Issues', description: 'The issue tracker unit.' }),
  bool('has_wiki', { title: 'Wiki', description: 'The wiki unit.' }),
  bool('has_pull_requests', { title: 'Pull requests', description: 'The pull-request unit. The merge settings below need it.' }),
  bool('has_projects', { title: 'Projects', description: 'The projects unit.' }),
  bool('has_releases', { title: 'Releases', description: 'The releases unit.' }),
  bool('has_packages', { title: 'Packages', description: 'The packages unit.' }),
  bool('has_actions', { title: 'Actions', description: 'The Actions unit.' }),
  prSetting('ignore_whitespace_conflicts', 'Ignore whitespace conflicts', 'Ignore whitespace when checking a pull request for conflicts.'),
  prSetting('allow_merge_commits', 'Allow merge commits', 'Pull requests may be merged with a merge commit.'),
  prSetting('allow_rebase', 'Allow rebase', 'Pull requests may be rebased and fast-forwarded.'),
  prSetting('allow_rebase_explicit', 'Allow rebase with merge commit', 'Pull requests may be rebased, then merged with a merge commit (--no-ff).'),
  prSetting('allow_squash_merge', 'Allow squash merge', 'Pull requests may be squashed into one commit.'),
  only(FAST_FORWARD, prSetting('allow_fast_forward_only_merge', 'Allow fast-forward-only merge', 'Pull requests may be merged by fast-forward only.')),
  only(MANUAL_MERGE_READ, prSetting('allow_manual_merge', 'Allow manual merge', 'Pull requests may be marked as merged by hand.')),
  only(MANUAL_MERGE_READ, prSetting('autodetect_manual_merge', 'Detect manual merges', 'A pull request whose commits reach the base branch is marked merged.')),
  prSetting('allow_rebase_update', 'Allow updating by rebase', 'A pull request\'s branch may be updated by rebase.'),
  prSetting('default_delete_branch_after_merge', 'Delete branch after merge', 'Deleting the head branch after a merge is ticked by default.'),
  field(
    { name: 'default_merge_style', type: 'scalar', answer: 'string', normalize: (v) => (v === null || v === undefined ? '' : String(v)) },
    {
      title: 'Default merge style',
      description:
        'The merge style offered first: merge, rebase, rebase-merge, squash, fast-forward-only (Gitea ≥ 1.22, Forgejo) or manually-merged. Needs the pull-request unit (has_pull_requests: true).',
      // The MergeStyle values of models/repo/git.go (v1.21.11 l.17–27, v1.25.4 l.17–29, Forgejo v7.0.16 l.17–29) but
      // rebase-update-only, which updates a pull request's branch and is no merge style. Gitea stores any string here
      // unchecked; Forgejo ≥ 11 answers 422 [DefaultMergeStyle]: In to another (modules/structs/repo.go:228, v11.0.15).
      enum: ['merge', 'rebase', 'rebase-merge', 'squash', 'fast-forward-only', 'manually-merged'],
    },
  ),
  prSetting('default_allow_maintainer_edit', 'Maintainers may edit by default', 'New pull requests let maintainers push to their branch by default.'),
  field(
    { name: 'topics', type: 'set', answer: 'string[]', normalize: normalizeTopics, perElement: true },
    {
      title: 'Topics',
      description:
        'The repository\'s topics, as a set: written with one PUT /repos/{owner}/{repo}/topics when they differ (the plan shows each topic added or removed). Gitea lower-cases them; at most 25, each a letter or digit then letters, digits, "-" and "." (35 characters at most). [] removes every topic.',
      type: 'array',
      uniqueItems: true,
      maxItems: 25,
      items: { type: 'string', pattern: '^[A-Za-z0-9][-.A-Za-z0-9]*$', maxLength: 35, patternErrorMessage: 'must be a topic: a letter or digit, then letters, digits, "-" or "."' },
    },
  ),
];

export const fields = serverFields(entries);

export const fragment: SchemaFragment = {
  definitions: {
    repo_settings: objectSchema(
      {
        title: 'Repository settings',
        description: 'Settings of an existing repository: only the fields written here are compared and written (one PATCH with the changed ones, one PUT of the topics when they differ).',
      },
      entries,
    ),
  },
};
