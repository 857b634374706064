/**
 * A new state and the state file (`--state FILE`, JSON): the access model's tables (core/state.ts)
 * and every registered domain's (`SandboxDomain.data`), saved under their names. A file written
 * before a domain had a table loads with that table empty.
 *
 * The state file holds no credential in clear: tokens and passwords are hashed when they are set;
 * a domain hashes or seals what else it keeps ({@link hashedForFile}, {@link sealed}). The sealing
 * key is kept in the file, as Gitea keeps its SECRET_KEY in app.ini beside the database.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { domains } from './registry.js';
import { emptyAccessData, hashPassword, SandboxState, type StateData } from './state.js';

const FORMAT = 'forgeform-sandbox-state';

/** Empty tables: the access model's and every registered domain's. */
export function emptyStateData(): StateData {
  const parts = domains().map((d) => d.data?.empty() ?? {});
  // The domains' parts complete the access model's tables into StateData (their records.ts declare them).
  return Object.assign(emptyAccessData(), ...parts) as StateData;
}

/** A state with no data at all (a seed fills it: seed.ts). */
export function emptyState(): SandboxState {
  return new SandboxState(emptyStateData());
}

export function stateToJSON(state: SandboxState): string {
  const data = state.data;
  const key = (data.secretKey ??= randomBytes(32).toString('hex'));
  const saved = domains().map((d) => d.data?.save?.(data, key) ?? {});
  return JSON.stringify(Object.assign({ format: FORMAT }, data, ...saved), null, 2) + '\n';
}

export function stateFromJSON(text: string): SandboxState {
  const parsed = JSON.parse(text) as Partial<StateData> & { format?: string };
  if (parsed.format !== FORMAT || parsed.version !== 1) {
    throw new Error(`not a forgeform sandbox state file (expected "format": "${FORMAT}", "version": 1)`);
  }
  const { format: _format, ...rest } = parsed;
  const data: StateData = { ...emptyStateData(), ...rest };
  for (const d of domains()) Object.assign(data, d.data?.load?.(data, data.secretKey));
  return new SandboxState(data);
}

/** How a state file marks a value it stores hashed: a value loaded from the file is not hashed again. */
const HASHED = 'sandbox-hashed:';

/** A credential no release gives back (a hook secret), as the state file keeps it: hashed. */
export function hashedForFile(value: string): string {
  return value === '' || value.startsWith(HASHED) ? value : `${HASHED}${hashPassword(value)}`;
}

/** How a state file marks a value it stores encrypted (AES-256-GCM: iv, tag and text, hex). */
const SEALED = 'sandbox-sealed:';

/** A credential the server gives back (a hook authorization header), as the state file keeps it: encrypted. */
export function sealed(value: string, keyHex: string): string {
  if (value === '' || value.startsWith(SEALED) || value.startsWith(HASHED)) return value;
  // The IV from the value (as SIV does): the same header saves as the same text, so a file re-saved unchanged stays the same.
  const iv = createHmac('sha256', Buffer.from(keyHex, 'hex')).update(value).digest().subarray(0, 12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), iv);
  const text = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
  return `${SEALED}${iv.toString('hex')}:${cipher.getAuthTag().toString('hex')}:${text.toString('hex')}`;
}

export function unsealed(value: string, keyHex: string): string {
  if (!value.startsWith(SEALED)) return value;
  const [iv, tag, text] = value.slice(SEALED.length).split(':');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(keyHex, 'hex'), Buffer.from(iv ?? '', 'hex'));
  decipher.setAuthTag(Buffer.from(tag ?? '', 'hex'));
  return Buffer.concat([decipher.update(Buffer.from(text ?? '', 'hex')), decipher.final()]).toString('utf8');
}
