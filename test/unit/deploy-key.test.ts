// A deploy key's text as the server stores and identifies it (src/kinds/deploy_key/ssh-key.ts), checked against the
// sandbox's own reading of the server's parser (src/sandbox/domains/users/ssh-keys.ts), and the shortened display.
import { describe, expect, it } from 'vitest';
import { deployKeyKind } from '../../src/kinds/deploy_key/index.js';
import { keyIdentity, parseSshKey, storedLine } from '../../src/kinds/deploy_key/ssh-key.js';
import { diffFields } from '../../src/plan/diff.js';
import { abbreviate, show } from '../../src/render/values.js';
import { checkPublicKeyString } from '../../src/sandbox/domains/users/ssh-keys.js';

const B64 = 'AAAAC3NzaC1lZDI1NTE5AAAAIFzTs3vPbQh5AxsIh24/MMxLjEmesV5G2HJ1NiSK/SkA';
const KEY = `ssh-ed25519 ${B64}`;
const OTHER = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOrTV0okcMATMIelyq50skascjq71c2BzfcQ43zJYiEb';

describe('a deploy key as the server stores it', () => {
  it.each([
    ['the line as written', `${KEY} ci@host`, `${KEY} ci@host`],
    ['spaces and line breaks around it trimmed', `  \n${KEY} ci@host \r\n`, `${KEY} ci@host`],
    ['a line break inside removed (a wrapped key)', `${KEY.slice(0, 30)}\n${KEY.slice(30)}`, KEY],
    ['a CRLF inside removed', `${KEY.slice(0, 30)}\r\n${KEY.slice(30)} me`, `${KEY} me`],
    ['the comment kept, spaces inside it too', `${KEY} deploy  key of ci`, `${KEY} deploy  key of ci`],
    ['a lone base64 given its type', B64, KEY],
  ])('%s', (_what, input, stored) => {
    expect(storedLine(input)).toBe(stored);
    // The sandbox reads the server's parseKeyString the same way.
    expect(checkPublicKeyString(input).content).toBe(stored);
  });

  it('identifies a key by its type and SHA256 fingerprint, as the server does: the comment does not count', () => {
    const id = keyIdentity(`${KEY} one`);
    expect(id).toBe(keyIdentity(`${KEY} another comment`));
    expect(id).toBe(keyIdentity(B64));
    expect(id).toBe(`ssh-ed25519 ${checkPublicKeyString(KEY).fingerprint}`);
    expect(id).not.toBe(keyIdentity(OTHER));
  });

  it.each([
    ['a type that is not the blob\'s', `ssh-rsa ${B64}`, 'key type and content does not match: ssh-rsa - ssh-ed25519'],
    ['two spaces after the type (Go splits at single spaces)', `ssh-ed25519  ${B64}`, 'is not the base64 of an SSH public key'],
    ['base64 that is no key', 'ssh-ed25519 bm90IGEga2V5', 'is not the base64 of an SSH public key'],
    ['an SSH2 key, which the server converts', `---- BEGIN SSH2 PUBLIC KEY ----\n${B64}\n---- END SSH2 PUBLIC KEY ----`, 'ssh-keygen -i'],
    ['a PEM key', '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n-----END PUBLIC KEY-----', 'ssh-keygen -i'],
    ['nothing', '  ', 'an empty key'],
  ])('refuses %s', (_what, input, message) => {
    const parsed = parseSshKey(input);
    expect('error' in parsed && parsed.error).toContain(message);
  });

  it('the server refuses the same texts (where it does not convert them)', () => {
    expect(() => checkPublicKeyString(`ssh-rsa ${B64}`)).toThrow('key type and content does not match: ssh-rsa - ssh-ed25519');
    expect(() => checkPublicKeyString(`ssh-ed25519  ${B64}`)).toThrow();
  });
});

describe('comparing a declared deploy key with the server\'s', () => {
  const compare = (want: unknown, have: unknown) => deployKeyKind.compare?.('key', { desired: { key: 'ci', fields: {}, path: [] }, current: undefined, prepared: undefined })?.(want, have);

  it('a key whose text differs only in its comment or line breaks is no change', () => {
    expect(compare(storedLine(`${KEY} new@host`), `${KEY} old@host`)).toBe(true);
    expect(compare(storedLine(`${KEY.slice(0, 20)}\n${KEY.slice(20)}`), `${KEY} old@host`)).toBe(true);
    const changes = diffFields(deployKeyKind.fields, { key: storedLine(`${KEY} new`), read_only: true }, { key: `${KEY} old`, read_only: true }, (f) => deployKeyKind.compare?.(f, { desired: { key: 'ci', fields: {}, path: [] }, current: undefined, prepared: undefined }));
    expect(changes).toEqual([]);
  });

  it('another key is a change, marked to be shown shortened', () => {
    const changes = diffFields(deployKeyKind.fields, { key: OTHER }, { key: `${KEY} old` }, (f) => deployKeyKind.compare?.(f, { desired: { key: 'ci', fields: {}, path: [] }, current: undefined, prepared: undefined }));
    expect(changes).toEqual([{ path: 'key', before: `${KEY} old`, after: OTHER, abbreviated: true }]);
  });
});

describe('a long value shown shortened', () => {
  it('keeps the first and last 24 characters and says the length', () => {
    expect(abbreviate(`${KEY} ci@example.com`)).toBe('"ssh-ed25519 AAAAC3NzaC1l…1NiSK/SkA ci@example.com" (95 chars)');
    expect(show(`${KEY} ci@example.com`, false, true)).toBe(abbreviate(`${KEY} ci@example.com`));
  });

  it('leaves a short value whole, and escapes what it shows', () => {
    expect(abbreviate('short')).toBe('"short"');
    expect(abbreviate(`${'a'.repeat(30)}\u202e${'b'.repeat(40)}`)).not.toContain('\u202e');
  });
});
