// The types the issue kind is defined with (defineKind), apart from its modules so that each imports them without a cycle.
import type { RepoConfig } from '../../config/types.js';
import type { CurrentOf, DesiredOf, KindTypes, Problem } from '../../model/index.js';

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

/** What an issue carries beside its fields, as read. */
export interface IssueMeta {
  /** Its labels' ids: names may be duplicated, ids are exact. */
  labelIds: number[];
  /** The body version a body edit is planned from (see CONTENT_VERSION). */
  contentVersion: number;
  /** The server's UTC offset as the issue's answer shows it: a due date is sent in it (due-date.ts). */
  utcOffset: string;
  /**
   * Where the server has no lock, a copy of the body that the saved plan's staleness digest covers
   * (`body` itself is left out of it: where the server guards it, a body edited since the plan must
   * not make the issue's other changes stale).
   */
  unguardedBody?: unknown;
}
/** What the config says of an issue beside its fields. */
export interface DeclaredIssueMeta {
  labelsMode?: 'add' | 'exact';
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
  /** The changes of this plan that give its added assignees access to the repository (a collaborator's PUT, a team's member or repository): the edit waits for them. */
  grants?: string[];
}

/** What prepare resolves for a repository's issues, by issue key ("#12"). */
export type Prepared = Map<string, PreparedIssue>;

/** What the issue kind is typed by: a repository's config, an issue as answered, its labels and milestone resolved; no state per run. */
export type IssueTypes = KindTypes<RepoConfig, ServerIssue, Prepared, undefined, IssueMeta, DeclaredIssueMeta>;
/** An issue as read, its meta typed. */
export type IssueObject = CurrentOf<IssueTypes>;
/** An issue as declared, its meta typed. */
export type DeclaredIssue = DesiredOf<IssueTypes>;
