/** Deploy keys, saved in the state file (`StateData` extends {@link DeployKeysData}), and their lookups. */
import type { SandboxState, StateData } from '../../core/state.js';

/**
 * A deploy key as `models/asymkey/ssh_key_deploy.go` saves it (`DeployKey`, Gitea v1.25.4 l.28-42): the pair
 * (key_id, repo_id) and the name are unique in a repository; the key's text lives in the public key it points
 * at (`key_id`), which every repository that has the same key shares.
 */
export interface DeployKeyRecord {
  id: number;
  /** The PublicKeyRecord (`deploy: true`) holding the text. */
  keyId: number;
  repoId: number;
  name: string;
  fingerprint: string;
  readOnly: boolean;
  createdAt: string;
}

declare module '../../core/state.js' {
  /** The deploy-keys domain's table: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    deployKeys: DeployKeyRecord[];
  }
}

export type DeployKeysData = Pick<StateData, 'deployKeys'>;

export function emptyDeployKeysData(): DeployKeysData {
  return { deployKeys: [] };
}

/** `ListDeployKeysOptions{RepoID}`: the repository's deploy keys in id order. */
export function deployKeysOf(state: SandboxState, repoId: number): DeployKeyRecord[] {
  return state.data.deployKeys.filter((k) => k.repoId === repoId).sort((a, b) => a.id - b.id);
}
