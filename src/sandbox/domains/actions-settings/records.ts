/**
 * Records of the Actions secrets and variables of organisations and repositories
 * (`models/secret/secret.go` Secret, `models/actions/variable.go` ActionVariable). One of `ownerId`
 * (an organisation's) and `repoId` (a repository's) is 0, as Gitea keeps them. Saved in the state
 * file with everything else (part of `StateData`); a secret's value sealed there (see index.ts).
 */
import type { StateData } from '../../core/state.js';

/** A secret or a variable: Gitea keeps the two alike. */
interface ActionValueRecord {
  id: number;
  ownerId: number;
  repoId: number;
  /** Upper-cased, as `InsertEncryptedSecret`, `InsertVariable` and `UpdateVariable` store it. */
  name: string;
  /** A secret's value (Gitea keeps it encrypted and never answers it); a variable's, CRLF stored as LF (`util.ReserveLineBreakForTextarea`). */
  data: string;
  /** Gitea 1.24+; '' elsewhere. */
  description: string;
  createdAt: string;
}

export type ActionSecretRecord = ActionValueRecord;
export type ActionVariableRecord = ActionValueRecord;

declare module '../../core/state.js' {
  /** The Actions settings' tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    actionSecrets: ActionSecretRecord[];
    actionVariables: ActionVariableRecord[];
  }
}

export type ActionsSettingsData = Pick<StateData, 'actionSecrets' | 'actionVariables'>;

export function emptyActionsSettingsData(): ActionsSettingsData {
  return { actionSecrets: [], actionVariables: [] };
}

/** Where a secret or variable lives: an organisation's (`ownerId`) or a repository's (`repoId`). */
export interface ActionsScope {
  ownerId: number;
  repoId: number;
}

export const inScope = (s: ActionsScope) => (r: ActionsScope): boolean => r.ownerId === s.ownerId && r.repoId === s.repoId;
