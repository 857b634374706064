/**
 * Adding and deleting deploy keys as every release does (the same logic in Gitea v1.21.11 to 1.26 main and Forgejo
 * v7.0.16 to v15.0.3; lines of Gitea v1.25.4 unless said):
 *
 * - `CheckPublicKeyString` first (routers/api/v1/repo/key.go l.235-239): 422 "Invalid key content: …";
 * - `AddDeployKey` (models/asymkey/ssh_key_deploy.go l.117-157) looks the public key up by fingerprint: one that
 *   is no deploy key (a user's) → 422 "Key content has been used as non-deploy key" (l.133-134, key.go l.191-192);
 *   one that is a deploy key (of any repository) is reused with its stored text and name; else a new one is added
 *   with this text. read_only false (or absent) gives write access (l.123-126);
 * - `checkDeployKey` (l.69-90): the key already in this repository → 422 "This key has already been added to this
 *   repository" (key.go l.189-190), then the name → 422 "A key with the same name already exists" (l.195-196); all in
 *   one transaction: a refused add leaves no public key behind;
 * - delete (services/asymkey/deploy_key.go l.31-47): the row, then the public key when no repository uses it any more.
 */
import { failure, isFailure, type Failure } from '../../core/failure.js';
import { nowIso, type RepoRecord, type SandboxState } from '../../core/state.js';
import type { PublicKeyRecord } from '../users/records.js';
import { checkKeyContent } from '../users/badges-keys.js';
import type { DeployKeyRecord } from './records.js';

/** What an add answers besides the record: the text this request's key was normalised to (`key.Content = content`, key.go l.247). */
export interface AddedDeployKey {
  record: DeployKeyRecord;
  content: string;
}

export function addDeployKey(state: SandboxState, repo: RepoRecord, title: string, key: string, readOnly: boolean): AddedDeployKey | Failure {
  const parsed = checkKeyContent(key);
  if (isFailure(parsed)) return parsed;
  const existing = state.data.publicKeys.find((k) => k.fingerprint === parsed.fingerprint);
  if (existing && !existing.deploy) return failure(422, 'Key content has been used as non-deploy key');
  if (existing && state.data.deployKeys.some((d) => d.keyId === existing.id && d.repoId === repo.id)) return failure(422, 'This key has already been added to this repository');
  if (state.data.deployKeys.some((d) => d.repoId === repo.id && d.name === title)) return failure(422, 'A key with the same name already exists');
  const now = nowIso();
  let pkey: PublicKeyRecord | undefined = existing;
  if (!pkey) {
    pkey = { id: state.nextId('publicKey'), ownerId: 0, name: title, content: parsed.content, fingerprint: parsed.fingerprint, createdAt: now, updatedAt: now, deploy: true };
    state.data.publicKeys.push(pkey);
  }
  const record: DeployKeyRecord = { id: state.nextId('deployKey'), keyId: pkey.id, repoId: repo.id, name: title, fingerprint: pkey.fingerprint, readOnly, createdAt: now };
  state.data.deployKeys.push(record);
  return { record, content: parsed.content };
}

/** `deleteDeployKeyFromDB`: the row, then its public key when it was the last deploy key using it. */
export function removeDeployKey(state: SandboxState, key: DeployKeyRecord): void {
  state.data.deployKeys = state.data.deployKeys.filter((d) => d !== key);
  if (!state.data.deployKeys.some((d) => d.keyId === key.keyId)) state.data.publicKeys = state.data.publicKeys.filter((k) => k.id !== key.keyId);
}
