// The types the issue kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { RepoConfig } from '../../config/types.js';
import type { KindTypes, Problem } from '../../model/index.js';

/** An issue as the server answers it (its shape checked, see shape in read.ts). */
export interface ServerIssue {
  number: number;
  title: string;
  body: string;
  state: string;
  ref: string;
  labels: { id: number; name: string }[] | null;
  milestone: { id: number; title: string } | null;
  assignees: { login: string }[] | null;
  due_date: string | null;
  created_at?: string;
  updated_at?: string;
  projects?: { id: number }[] | null;
  content_version?: number;
}

/** A label an issue can carry, as it will be once the plan's label changes are applied. */
export interface LabelTarget {
  name: string;
  /** The label's id, or a reference to the change that creates it. */
  id: number | { $ref: string };
  exclusive: boolean;
}

export interface PreparedIssue {
  problems: Problem[];
  targets: LabelTarget[];
  /** The labels on the issue now, named as they will be after this plan's renames. */
  currentNames: string[];
  milestoneId?: number;
}

/** What prepare resolves for a repository's issues, by issue key ("#12"). */
export type Prepared = Map<string, PreparedIssue>;

/** What the issue kind is typed by: a repository's config, an issue as answered, its labels and milestone resolved; no state per run. */
export type IssueTypes = KindTypes<RepoConfig, ServerIssue, Prepared>;
