/**
 * An SSH public key as every release reads a deploy key's `key` (`models/asymkey/ssh_key_parse.go`
 * `parseKeyString` and `CheckPublicKeyString`, one logic in every tag: Gitea v1.25.4 (and 1.26 main, the same
 * blob) l.54-152 and l.157-169; Gitea v1.21.11 to v1.23.8 and Forgejo v7.0.16 to v9.0.3 (one blob) l.56-154
 * and l.159-171; Forgejo v15.0.3 l.57-155 and l.160-172). Lines below are v1.25.4's:
 *
 * - the text is trimmed (l.56), its `\r\n` and `\n` removed (l.119: a key wrapped over lines is one line);
 * - it is split at the first two single spaces (`strings.SplitN(content, " ", 3)`, l.121): type, base64,
 *   comment; a lone base64 gets its type from the blob (l.137-142), a type that is not the blob's is refused;
 * - the server stores `type + " " + base64 + " " + comment`, trimmed (l.152, l.169): the comment is kept.
 *
 * Its identity is the key material: `CalcFingerprint` (SHA256 of the blob, `ssh.FingerprintSHA256`) is what
 * AddDeployKey looks the key up by (`models/asymkey/ssh_key_deploy.go` v1.25.4 l.118, l.129), and a key that is
 * already a deploy key of another repository is added with that key's stored text, not the one sent (l.129-148;
 * GetContent l.51-58 answers it): so the comment never decides whether two keys are the same.
 * SSH2 (`---- BEGIN SSH2 PUBLIC KEY ----`) and PEM inputs, which the server converts (l.60-115), are refused here:
 * their stored form is another text than the one declared.
 */
import { createHash } from 'node:crypto';

export interface SshKey {
  /** The line the server stores: `type base64[ comment]`. */
  line: string;
  type: string;
  /** `type SHA256:…`, as `ssh-keygen -l` prints it: what two keys are compared by. */
  identity: string;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The key type a blob starts with (`extractTypeFromBase64Key`, l.39-51), or undefined. */
function blobType(blob: Buffer): string | undefined {
  if (blob.length < 4) return undefined;
  const len = blob.readUInt32BE(0);
  return blob.length < 4 + len ? undefined : blob.subarray(4, 4 + len).toString('latin1');
}

/** The key as the server will store and identify it, or why the server refuses it (its message follows `Invalid key content: `). */
export function parseSshKey(text: string): SshKey | { error: string } {
  const trimmed = text.trim();
  if (trimmed.startsWith('---- BEGIN SSH2 PUBLIC KEY ----') || trimmed.includes('-----BEGIN'))
    return { error: 'an SSH2 or PEM key, which the server converts to another text: declare the OpenSSH line (ssh-keygen -i -f KEY prints it)' };
  const content = trimmed.replace(/\r\n|\n/g, '');
  if (content === '') return { error: 'an empty key' };
  const first = content.indexOf(' ');
  const second = first < 0 ? -1 : content.indexOf(' ', first + 1);
  const declaredType = first < 0 ? '' : content.slice(0, first);
  const material = first < 0 ? content : content.slice(first + 1, second < 0 ? undefined : second);
  const comment = second < 0 ? '' : content.slice(second + 1);
  const blob = BASE64.test(material) ? Buffer.from(material, 'base64') : undefined;
  const type = blob && blobType(blob);
  if (!blob || type === undefined) return { error: `"${material.length > 24 ? `${material.slice(0, 24)}…` : material}" is not the base64 of an SSH public key (the key type, one space, the base64, one space, an optional comment)` };
  if (declaredType && declaredType !== type) return { error: `key type and content does not match: ${declaredType} - ${type}` };
  const fingerprint = createHash('sha256').update(blob).digest('base64').replace(/=+$/, '');
  return { line: `${type} ${material} ${comment}`.trim(), type, identity: `${type} SHA256:${fingerprint}` };
}

/** What two key texts are compared by: their identity when both parse, else the text itself. */
export function keyIdentity(text: unknown): string {
  const s = typeof text === 'string' ? text : '';
  const parsed = parseSshKey(s);
  return 'error' in parsed ? s.trim() : parsed.identity;
}

/** The text the server stores for a declared key: what the config's `key` is normalised to (a text that does not parse is left as trimmed). */
export function storedLine(text: unknown): string {
  const s = typeof text === 'string' ? text : '';
  const parsed = parseSshKey(s);
  return 'error' in parsed ? s.trim() : parsed.line;
}
