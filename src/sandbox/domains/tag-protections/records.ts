/** Tag protections, saved in the state file (`StateData` extends {@link TagProtectionsData}), and their lookups. */
import type { SandboxState, StateData } from '../../core/state.js';
import { defineIndex } from '../../core/table-index.js';

/** A protected tag as `models/git/protected_tag.go` saves it: allowlists hold ids, so renames carry through. */
export interface TagProtectionRecord {
  id: number;
  repoId: number;
  namePattern: string;
  userIds: number[];
  teamIds: number[];
  createdAt: string;
  updatedAt: string;
}

declare module '../../core/state.js' {
  /** The tag-protections domain's table: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    tagProtections: TagProtectionRecord[];
  }
}

export type TagProtectionsData = Pick<StateData, 'tagProtections'>;

export function emptyTagProtectionsData(): TagProtectionsData {
  return { tagProtections: [] };
}

export const TAG_PROTECTIONS = defineIndex<TagProtectionRecord>()({ table: 'tagProtections', groups: { repo: (p) => p.repoId } });

/** `GetProtectedTags`: the repository's protections, in id order (the table's order). */
export function tagProtectionsOfRepo(state: SandboxState, repoId: number): TagProtectionRecord[] {
  return state.indexes.of(TAG_PROTECTIONS).list('repo', repoId);
}
