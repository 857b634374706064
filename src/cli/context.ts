import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/errors.js';
import { loadConfig } from '../config/load.js';
import type { LoadedConfig } from '../config/types.js';
import { GiteaClient, type Credentials } from '../gitea/client.js';
import { urlHasCredentials } from '../secret.js';
import { EXIT, UserError, type Output } from './output.js';

export interface ServerOptions {
  url?: string;
  tokenFile?: string;
  insecureHttp?: boolean;
  concurrency?: string;
  timeout?: string;
  retries?: string;
}

export const DEFAULT_CONFIG = 'forgeform.yaml';

export async function load(paths: string[] | undefined, out: Output): Promise<LoadedConfig> {
  try {
    const loaded = await loadConfig(paths?.length ? paths : [DEFAULT_CONFIG]);
    out.addSecrets(loaded.secrets.values());
    return loaded;
  } catch (e) {
    if (e instanceof ConfigError) throw new UserError(e.message, EXIT.error);
    throw e;
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}

/** Server URL from --url, FORGEFORM_URL or server.url; credentials only from the environment or a file. */
export function makeClient(opts: ServerOptions, out: Output, configUrl?: string): GiteaClient {
  const url = opts.url ?? process.env.FORGEFORM_URL ?? configUrl;
  if (!url) throw new UserError('no server: pass --url, set FORGEFORM_URL, or set server.url in the config');
  if (urlHasCredentials(url)) {
    const from = opts.url !== undefined ? '--url' : process.env.FORGEFORM_URL !== undefined ? 'FORGEFORM_URL' : 'server.url';
    throw new UserError(`the server URL of ${from} holds a user name or password: remove it from the URL, and set FORGEFORM_TOKEN (or --token-file), or FORGEFORM_USERNAME and FORGEFORM_PASSWORD`);
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`server URL "${url}" is not a valid URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new UserError(`server URL "${url}" must start with https:// or http://`);
  if (parsed.protocol === 'http:' && !isLoopback(parsed.hostname) && !opts.insecureHttp)
    throw new UserError(`refusing to send credentials over plain http to ${parsed.host}: use https, or pass --insecure-http`);

  let credentials: Credentials;
  if (opts.tokenFile) {
    let token: string;
    try {
      token = readFileSync(opts.tokenFile, 'utf8').trim();
    } catch (e) {
      throw new UserError(`cannot read --token-file ${opts.tokenFile}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    credentials = { token };
  } else if (process.env.FORGEFORM_TOKEN) {
    credentials = { token: process.env.FORGEFORM_TOKEN };
  } else if (process.env.FORGEFORM_USERNAME && process.env.FORGEFORM_PASSWORD) {
    credentials = { username: process.env.FORGEFORM_USERNAME, password: process.env.FORGEFORM_PASSWORD };
  } else {
    throw new UserError('no credentials: set FORGEFORM_TOKEN (or pass --token-file), or FORGEFORM_USERNAME and FORGEFORM_PASSWORD');
  }
  out.addSecrets('token' in credentials ? [credentials.token] : [credentials.password]);

  const concurrency = opts.concurrency === undefined ? 8 : Number(opts.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UserError(`--concurrency must be a positive integer, got ${opts.concurrency}`);
  const timeout = opts.timeout === undefined ? 30 : Number(opts.timeout);
  if (!(timeout > 0)) throw new UserError(`--timeout must be a positive number of seconds, got ${opts.timeout}`);
  const retriesText = opts.retries ?? process.env.FORGEFORM_RETRY_LIMIT;
  const retries = retriesText === undefined ? undefined : Number(retriesText);
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0)) throw new UserError(`--retries must be a whole number ≥ 0, got ${retriesText}`);
  // Tuning knob for tests and unusual proxies; the default suits a real server.
  const retryDelay = process.env.FORGEFORM_RETRY_DELAY_MS ? Number(process.env.FORGEFORM_RETRY_DELAY_MS) : undefined;
  return new GiteaClient({
    url: parsed.toString(),
    credentials,
    concurrency,
    timeoutMs: timeout * 1000,
    ...(retryDelay !== undefined ? { retryDelayMs: retryDelay } : {}),
    ...(retries !== undefined ? { retries } : {}),
    onWarning: (message) => out.stderr(out.err.yellow(`warning: ${message}`)),
  });
}
