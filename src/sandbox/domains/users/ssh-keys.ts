/**
 * SSH public keys as Gitea checks them (`models/asymkey/ssh_key_parse.go`: `parseKeyString`,
 * `CheckPublicKeyString`, `SSHNativeParsePublicKey`, `CalcFingerprint`), for the OpenSSH
 * one-line format: `[type] base64 [comment]`. Errors carry Gitea's wording so that the API can
 * answer `Invalid key content: …`. SSH2 (`---- BEGIN SSH2 PUBLIC KEY ----`) and PEM inputs are not
 * converted: they fail as an unreadable key.
 */
import { createHash } from 'node:crypto';

export interface ParsedKey {
  /** The saved line: `<type> <base64>[ <comment>]`. */
  content: string;
  /** `SHA256:<base64 without padding>` of the key blob (`ssh.FingerprintSHA256`). */
  fingerprint: string;
  /** `ed25519`, `rsa`, `ecdsa` … as `SSHNativeParsePublicKey` names them. */
  kind: string;
  bits: number;
}

export class KeyError extends Error {
  override name = 'KeyError';
}

/** `[ssh.minimum_key_sizes]` defaults; `MINIMUM_KEY_SIZE_CHECK` is on by default. DSA is not listed, so not allowed. */
export const MINIMUM_KEY_SIZES: Record<string, number> = { ed25519: 256, 'ed25519-sk': 256, ecdsa: 256, 'ecdsa-sk': 256, rsa: 3071 };

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Go's `base64.StdEncoding.DecodeString` (padding required, `\r`/`\n` skipped), with its error offsets. */
export function goBase64Decode(src: string): Buffer {
  const out: number[] = [];
  let si = 0;
  const corrupt = (at: number): never => {
    throw new KeyError(`illegal base64 data at input byte ${at}`);
  };
  for (;;) {
    const dbuf = [0, 0, 0, 0];
    let dlen = 4;
    let end = false;
    for (let j = 0; j < 4; j++) {
      if (si === src.length) {
        if (j === 0) return Buffer.from(out);
        corrupt(si - j);
      }
      const ch = src[si]!;
      si++;
      const v = B64.indexOf(ch);
      if (v >= 0) {
        dbuf[j] = v;
        continue;
      }
      if (ch === '\n' || ch === '\r') {
        j--;
        continue;
      }
      if (ch !== '=') corrupt(si - 1);
      if (j === 0 || j === 1) corrupt(si - 1);
      if (j === 2) {
        while (si < src.length && (src[si] === '\n' || src[si] === '\r')) si++;
        if (si === src.length) corrupt(src.length);
        if (src[si] !== '=') corrupt(si - 1);
        si++;
      }
      while (si < src.length && (src[si] === '\n' || src[si] === '\r')) si++;
      if (si < src.length) corrupt(si);
      dlen = j;
      end = true;
      break;
    }
    const val = (dbuf[0]! << 18) | (dbuf[1]! << 12) | (dbuf[2]! << 6) | dbuf[3]!;
    const bytes = [(val >> 16) & 0xff, (val >> 8) & 0xff, val & 0xff];
    // A quantum of n characters (2 to 4) carries n - 1 bytes.
    out.push(...bytes.slice(0, dlen - 1));
    if (end) return Buffer.from(out);
  }
}

/** Reads SSH wire-format fields (`string`, `mpint`). */
class Wire {
  private pos = 0;
  constructor(private readonly buf: Buffer) {}

  string(): Buffer {
    if (this.pos + 4 > this.buf.length) throw new KeyError('short read');
    const len = this.buf.readUInt32BE(this.pos);
    this.pos += 4;
    if (this.pos + len > this.buf.length) throw new KeyError('short read');
    const s = this.buf.subarray(this.pos, this.pos + len);
    this.pos += len;
    return s;
  }

  done(): boolean {
    return this.pos === this.buf.length;
  }
}

function bitLength(mpint: Buffer): number {
  let i = 0;
  while (i < mpint.length && mpint[i] === 0) i++;
  if (i === mpint.length) return 0;
  return (mpint.length - i - 1) * 8 + (32 - Math.clz32(mpint[i]!));
}

const ECDSA_CURVES: Record<string, { curve: string; bits: number; pointLen: number }> = {
  'ecdsa-sha2-nistp256': { curve: 'nistp256', bits: 256, pointLen: 65 },
  'ecdsa-sha2-nistp384': { curve: 'nistp384', bits: 384, pointLen: 97 },
  'ecdsa-sha2-nistp521': { curve: 'nistp521', bits: 521, pointLen: 133 },
};

/** `ssh.ParsePublicKey` for the common algorithms: the kind and size, or a KeyError. */
function parseBlob(blob: Buffer): { type: string; kind: string; bits: number } {
  const w = new Wire(blob);
  const type = w.string().toString('latin1');
  let kind: string;
  let bits: number;
  if (type === 'ssh-ed25519') {
    if (w.string().length !== 32) throw new KeyError('ssh: invalid size for ed25519 key');
    kind = 'ed25519';
    bits = 256;
  } else if (type === 'sk-ssh-ed25519@openssh.com') {
    if (w.string().length !== 32) throw new KeyError('ssh: invalid size for ed25519 key');
    w.string();
    kind = 'ed25519-sk';
    bits = 256;
  } else if (type === 'ssh-rsa') {
    const e = w.string();
    const n = w.string();
    if (bitLength(e) > 24) throw new KeyError('ssh: exponent too large');
    kind = 'rsa';
    bits = bitLength(n);
  } else if (type === 'ssh-dss') {
    const p = w.string();
    w.string();
    w.string();
    w.string();
    kind = 'dsa';
    bits = bitLength(p);
  } else if (ECDSA_CURVES[type] || type === 'sk-ecdsa-sha2-nistp256@openssh.com') {
    const spec = ECDSA_CURVES[type] ?? ECDSA_CURVES['ecdsa-sha2-nistp256']!;
    const curve = w.string().toString('latin1');
    const point = w.string();
    if (curve !== spec.curve || point.length !== spec.pointLen || point[0] !== 4) throw new KeyError('ssh: invalid ecdsa key');
    if (type.startsWith('sk-')) w.string();
    kind = type.startsWith('sk-') ? 'ecdsa-sk' : 'ecdsa';
    bits = spec.bits;
  } else {
    throw new KeyError(`ssh: unknown key algorithm: ${type}`);
  }
  if (!w.done()) throw new KeyError('ssh: trailing junk in public key');
  return { type, kind, bits };
}

/** `extractTypeFromBase64Key`. */
function typeFromBase64(b64: string): string {
  let b: Buffer;
  try {
    b = goBase64Decode(b64);
  } catch (err) {
    throw new KeyError(`extractTypeFromBase64Key: invalid key format: ${(err as Error).message}`);
  }
  // Go formats the nil error with %w.
  if (b.length < 4) throw new KeyError('extractTypeFromBase64Key: invalid key format: %!w(<nil>)');
  const len = b.readUInt32BE(0);
  if (b.length < 4 + len) throw new KeyError(`extractTypeFromBase64Key: invalid key format: not enough length ${len}`);
  return b.subarray(4, 4 + len).toString('latin1');
}

/**
 * `CheckPublicKeyString` followed by `CalcFingerprint`. Throws a KeyError whose message is what
 * the API puts after `Invalid key content: `.
 */
export function checkPublicKeyString(input: string): ParsedKey {
  const content = input.trim().replace(/\r\n|\n/g, '');
  const parts = content.split(' ');
  const keyType0 = parts.length >= 2 ? parts[0]! : '';
  const keyContent = parts.length >= 2 ? parts[1]! : (parts[0] ?? '');
  const keyComment = parts.length >= 3 ? parts.slice(2).join(' ') : '';
  const t = typeFromBase64(keyContent);
  if (keyType0 && keyType0 !== t) throw new KeyError(`key type and content does not match: ${keyType0} - ${t}`);
  const keyType = keyType0 || t;
  // ssh.ParseAuthorizedKey: any failure to read the blob ends as "no key found".
  let blob: Buffer;
  let parsed: { kind: string; bits: number };
  try {
    blob = goBase64Decode(keyContent);
    parsed = parseBlob(blob);
  } catch {
    throw new KeyError('invalid ssh public key: ssh: no key found');
  }
  const line = `${keyType} ${keyContent} ${keyComment}`.trim();
  const min = MINIMUM_KEY_SIZES[parsed.kind];
  if (min === undefined) throw new KeyError(`key type is not allowed: ${parsed.kind}`);
  if (parsed.bits < min) throw new KeyError(`key length is not enough: got ${parsed.bits}, needs ${min}`);
  const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { content: line, fingerprint, kind: parsed.kind, bits: parsed.bits };
}
