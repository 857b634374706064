// The types the label kinds are defined with (defineKind), apart from their modules so that each imports them without a cycle.
import type { LabelConfig, OrgConfig, RepoConfig } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';

/** What the label kinds keep for one run. */
export interface LabelRun {
  /**
   * A label's fields as declared, normalised once per entry of the configuration: the labels of a glob
   * are one entry for all its repositories (30,000 label objects from 120 entries in the benchmark).
   * Nothing writes to a declared object's fields, so they can be shared.
   */
  normalised: WeakMap<LabelConfig, Record<string, unknown>>;
  /** How many issues carry each label id, per repository or organisation: one read, shared by every label of it. */
  issueCounts: Map<string, Promise<Map<number, number>>>;
}

/** A label as the server answers it (its shape checked). */
export type ServerLabel = Record<string, unknown> & { id: number; name: string };

/** What a repository's or an organisation's config says of labels (the two sections are alike). */
export type LabelSection = Pick<RepoConfig & OrgConfig, 'labels' | 'label_template'>;

/** What the label kinds are typed by: the labels section of their scope, a label as answered, no lookups, their state per run. */
export type LabelTypes = KindTypes<LabelSection, ServerLabel, undefined, LabelRun>;
