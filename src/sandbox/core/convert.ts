/**
 * What every API-object converter shares (`services/convert`): the state and ROOT_URL, Go's zero
 * times, avatar and host helpers. The converters themselves live in their domain's `convert.ts`,
 * in the field order of Gitea's `modules/structs`.
 */
import { createHash } from 'node:crypto';
import type { SandboxState } from './state.js';
import type { Flavour } from '../flavours/flavour.js';

/** What every converter needs: the state and ROOT_URL (with its trailing slash). */
export interface ConvertContext {
  state: SandboxState;
  root: string;
  /** The release whose answer shapes to use (an API context has it; seed-time conversions do not). */
  flavour?: Flavour;
  /** The server's time zone (an IANA name): `due_date` is answered in it. Unset: UTC. */
  timezone?: string;
}

export const ZERO_TIME = '0001-01-01T00:00:00Z';
export const EPOCH = '1970-01-01T00:00:00Z';

/** Avatar hashes already made: every user object of every answer has one, and a forge has far fewer users than answers. */
const MD5S = new Map<string, string>();

function md5(s: string): string {
  let hex = MD5S.get(s);
  if (hex === undefined) {
    hex = createHash('md5').update(s).digest('hex');
    if (MD5S.size >= 100_000) MD5S.clear();
    MD5S.set(s, hex);
  }
  return hex;
}

export function host(root: string): string {
  return new URL(root).hostname;
}

export function avatarUrl(root: string, key: string): string {
  return `${root}avatars/${md5(key.toLowerCase())}`;
}
