// A user's badges and SSH keys: managed as two set fields of the user kind, read with one request
// per user whose config names them, and written with one request per real change.
import { createHash } from 'node:crypto';
import type { SshKeyConfig } from '../../config/types.js';
import type { GiteaClient } from '../../gitea/client.js';
import { apiPath } from '../../gitea/path.js';
import { serverHas, type Availability, type Op, type ServerInfo } from '../../model/index.js';
import { asSet, inGitea } from '../fields.js';
import type { KnownKey, UserObject } from './types.js';

/** GET/POST/DELETE /admin/users/{username}/badges: Gitea 1.22 (#23106); no Forgejo routes them (routers/api/v1/api.go). */
export const BADGES: Availability = inGitea('1.22');

/**
 * The identity of an SSH public key: its type and the SHA256 fingerprint of its key material, as
 * `ssh-keygen -l` prints it. The comment (and the title) do not count.
 */
export function sshKeyIdentity(key: string): string {
  const [type = '', material = ''] = key.trim().split(/\s+/);
  const fingerprint = createHash('sha256').update(Buffer.from(material, 'base64')).digest('base64').replace(/=+$/, '');
  return `${type} SHA256:${fingerprint}`;
}

export function wantedKeys(keys: SshKeyConfig[]): KnownKey[] {
  return keys.map((k) => ({ title: k.title, key: k.key.trim(), identity: sshKeyIdentity(k.key) }));
}

/** Reads the badges and keys of one user, for the fields its config names; badges only from a release that has them. */
export async function readExtras(client: GiteaClient, user: UserObject, wants: { badges: boolean; keys: boolean }, server: ServerInfo | undefined): Promise<void> {
  const who = `user ${user.key}`;
  const badges = async () => {
    const list = await client.get<{ slug?: string; Slug?: string }[] | undefined>(apiPath('admin', 'users', user.key, 'badges'), { object: `badges of ${who}`, expect: 'list', shape: { slug: 'string?', Slug: 'string?' } });
    // Gitea writes its badge model, which has no JSON tags ("Slug"); the API description says "slug".
    user.fields.badges = asSet((list ?? []).map((b) => b.slug ?? b.Slug));
  };
  const keys = async () => {
    const list = await client.list<{ id: number; title: string; key: string }>(apiPath('users', user.key, 'keys'), { object: `SSH keys of ${who}`, shape: { id: 'id', title: 'string', key: 'string' } });
    const known: KnownKey[] = list.map((k) => ({ id: k.id, title: k.title, key: k.key, identity: sshKeyIdentity(k.key) }));
    user.fields.ssh_keys = asSet(known.map((k) => k.identity));
    user.meta = { ...user.meta, sshKeys: known };
  };
  await Promise.all([...(wants.badges && serverHas(server, BADGES) ? [badges()] : []), ...(wants.keys ? [keys()] : [])]);
}

/** Badge changes: one DELETE (JSON body) for those to remove, one POST for those to add (a POST fails whole on one assigned slug). */
export function badgeOps(name: string, want: unknown, have: unknown): Op[] {
  const wanted = asSet(want);
  const current = asSet(have);
  const path = apiPath('admin', 'users', name, 'badges');
  const remove = current.filter((b) => !wanted.includes(b));
  const add = wanted.filter((b) => !current.includes(b));
  return [
    ...(remove.length ? [{ method: 'DELETE' as const, path, body: { badge_slugs: remove }, reason: `remove badges ${remove.join(', ')}` }] : []),
    ...(add.length ? [{ method: 'POST' as const, path, body: { badge_slugs: add }, reason: `add badges ${add.join(', ')}` }] : []),
  ];
}

/** Key changes: one DELETE per key to remove (by id), one POST per key to add. */
export function keyOps(name: string, wanted: KnownKey[], current: KnownKey[]): Op[] {
  const ops: Op[] = [];
  const wantedIds = new Set(wanted.map((k) => k.identity));
  const currentIds = new Set(current.map((k) => k.identity));
  for (const k of current) {
    if (wantedIds.has(k.identity)) continue;
    ops.push({ method: 'DELETE', path: apiPath('admin', 'users', name, 'keys', k.id ?? 0), reason: `remove SSH key "${k.title}" (${k.identity})` });
  }
  for (const k of wanted) {
    if (currentIds.has(k.identity)) continue;
    ops.push({ method: 'POST', path: apiPath('admin', 'users', name, 'keys'), body: { title: k.title, key: k.key }, reason: `add SSH key "${k.title}" (${k.identity})` });
  }
  return ops;
}
