import { generateKeyPairSync } from 'node:crypto';
import type { SeedFile } from '../../src/sandbox/index.js';
import { SEED } from './helpers.js';

function sshString(b: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(b.length);
  return Buffer.concat([len, b]);
}

/** A fresh OpenSSH ed25519 public key line (`ssh-ed25519 AAAA… comment`). */
export function ed25519Key(comment = ''): string {
  const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const blob = Buffer.concat([sshString(Buffer.from('ssh-ed25519')), sshString(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')}${comment ? ` ${comment}` : ''}`;
}

/** An OpenSSH RSA public key line of the given size. */
export function rsaKey(bits: number): string {
  const jwk = generateKeyPairSync('rsa', { modulusLength: bits }).publicKey.export({ format: 'jwk' }) as { n: string; e: string };
  const mpint = (b64u: string): Buffer => {
    let b = Buffer.from(b64u, 'base64url');
    if (b[0]! & 0x80) b = Buffer.concat([Buffer.from([0]), b]);
    return sshString(b);
  };
  return `ssh-rsa ${Buffer.concat([sshString(Buffer.from('ssh-rsa')), mpint(jwk.e), mpint(jwk.n)]).toString('base64')}`;
}

export const DORA_KEY = ed25519Key('dora@laptop');

/**
 * The shared seed plus the account keys: a login source, a badge catalogue, dora (LDAP, secondary
 * e-mails, a key, a badge), erin (must change her password), fred (inactive), gus (login
 * prohibited), a second site admin, and a system and a default hook with secrets.
 */
export const ACCOUNT_SEED: SeedFile = {
  ...SEED,
  auth_sources: [{ id: 2, name: 'corp-ldap', type: 'ldap' }],
  badges: [
    { slug: 'early', description: 'Early adopter', image_url: 'https://example.com/early.png' },
    { slug: 'helper', description: 'Helpful' },
    'plain',
  ],
  users: [
    ...SEED.users!,
    {
      username: 'dora',
      email: 'dora@example.com',
      full_name: 'Dora Explorer',
      source_id: 2,
      login_name: 'dora.ldap',
      token: 'dora-token',
      emails: ['dora@corp.example', { email: 'dora@old.example', verified: false }],
      keys: [DORA_KEY],
      badges: ['early'],
      max_repo_creation: 3,
      allow_create_organization: false,
    },
    { username: 'erin', must_change_password: true, token: 'erin-token', password: 'erinpass12' },
    { username: 'fred', active: false, token: 'fred-token' },
    { username: 'gus', prohibit_login: true, token: 'gus-token', visibility: 'limited' },
    { username: 'vera', admin: true, token: 'vera-token', restricted: true },
  ],
  hooks: [
    { type: 'gitea', config: { url: 'https://ci.example.com/system', content_type: 'json', secret: 'sys-secret', is_system_webhook: true }, events: ['push'], active: true },
    { type: 'slack', config: { url: 'https://hooks.slack.com/x', content_type: 'json', channel: '#ops', secret: 'def-secret' }, events: ['issues'], branch_filter: 'main' },
  ],
};
