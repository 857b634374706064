import { readFileSync } from 'node:fs';
import { ConfigError } from '../config/errors.js';
import { loadConfig, valuesReadFromEnvironment } from '../config/load.js';
import { megabytes } from '../config/limits.js';
import type { LoadedConfig } from '../config/types.js';
import type { GiteaClient, Credentials, ReadAnswer, RetryInfo } from '../gitea/client.js';
import { excerpt } from '../config/excerpt.js';
import { urlHasCredentials } from '../secret.js';
import { describeServer, olderThanKnown, OLDEST_KNOWN, parseServerSpec, serverFromReports, type ServerInfo } from '../model/server.js';
import { fileReason } from './files.js';
import { EXIT, UserError, type Output } from './output.js';

export interface ServerOptions {
  url?: string;
  tokenFile?: string;
  insecureHttp?: boolean;
  concurrency?: string;
  timeout?: string;
  retries?: string;
  readDeadline?: string;
  serverVersion?: string;
}

export const DEFAULT_CONFIG = 'forgeform.yaml';
/** More requests in flight than this gain nothing on a Gitea server and only risk its rate limits. */
export const MAX_CONCURRENCY = 64;

/** From this size on, a config's long steps (reading it, planning, writing the plan) print progress on stderr. */
export const LARGE_CONFIG_BYTES = 1024 * 1024;

export async function load(paths: string[] | undefined, out: Output, offline?: { unset: Set<string> }): Promise<LoadedConfig> {
  const started = Date.now();
  let large = false;
  const onRead = (bytes: number) => {
    if (bytes < LARGE_CONFIG_BYTES) return;
    large = true;
    out.stderr(`Reading the configuration (${megabytes(bytes)})…`);
  };
  try {
    const loaded = await loadConfig(paths?.length ? paths : [DEFAULT_CONFIG], out.env, offline, onRead);
    // Every value the config reads from the environment is masked in every output, whatever field reads it (issue 28):
    // a description that reads ${CI_HOOK_SECRET} prints (sensitive) in the plan, the apply and every refusal.
    out.addSecrets(valuesReadFromEnvironment(loaded));
    if (large) out.stderr(`Read the configuration in ${((Date.now() - started) / 1000).toFixed(1)}s.`);
    return loaded;
  } catch (e) {
    if (e instanceof ConfigError) throw new UserError(e.message, EXIT.error);
    throw e;
  }
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}

/** Longest --timeout: beyond it timers overflow, and no API call should take more than a day. */
const MAX_TIMEOUT_SECONDS = 86_400;

/**
 * A token travels in an HTTP header: a line break, a space or a non-ASCII character in it cannot be
 * sent (and usually means the wrong file or variable was given). The message never repeats the value.
 */
function checkToken(token: string, source: string): string {
  if (!token) throw new UserError(`${source} is empty: it must hold the API token`);
  const lines = token.split(/\r?\n/).length;
  if (lines > 1) throw new UserError(`${source} holds ${lines} lines: it must hold the API token alone, on one line`);
  if (!/^[\x21-\x7e]+$/.test(token)) throw new UserError(`${source} holds a space, a control or a non-ASCII character: an API token is plain ASCII with no spaces`);
  return token;
}

interface ClientAndCredentials {
  client: GiteaClient;
  /** Where the credentials came from, for messages ("the token in FORGEFORM_TOKEN"). */
  credentials: string;
}

/**
 * The server the credentials go to is the one they were given with: --url or FORGEFORM_URL. A URL
 * that only the configuration names (server.url) is not: anyone who can edit the configuration — a
 * pull request in a GitOps repository — could otherwise send the token to a host of their own.
 * Such a URL must be confirmed by --url or FORGEFORM_URL. (A saved plan's server is the one its
 * maker gave: `apply FILE` takes it, after checking the plan, as before.)
 */
function onlyFromFile(fileUrl: string, where: string): UserError {
  let origin = fileUrl;
  try {
    origin = new URL(fileUrl).origin;
  } catch {
    /* said as written */
  }
  return new UserError(
    `the server URL comes only from ${where} (${fileUrl}): forgeform sends credentials only to the server they are given with. Set FORGEFORM_URL (or pass --url) to ${origin} to send them there.`,
  );
}

/** Whether two URLs name one server (scheme, host and port); undefined when one is no URL. */
function sameOrigin(a: string, b: string): boolean | undefined {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return undefined;
  }
}

async function clientFor(opts: ServerOptions, out: Output, configUrl?: string, configUrlSource = 'server.url of the configuration', onAnswer?: (a: ReadAnswer) => void): Promise<ClientAndCredentials> {
  const env = out.env;
  const given = opts.url ?? env.FORGEFORM_URL;
  const url = given ?? configUrl;
  if (!url) throw new UserError('no server: pass --url or set FORGEFORM_URL (server.url of the config must name the same server)');
  if (urlHasCredentials(url)) {
    const from = opts.url !== undefined ? '--url' : env.FORGEFORM_URL !== undefined ? 'FORGEFORM_URL' : 'server.url';
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
  if (given === undefined) throw onlyFromFile(url, configUrlSource);
  if (configUrl !== undefined && sameOrigin(configUrl, url) === false)
    out.stderr(out.err.yellow(`warning: ${configUrlSource} names ${configUrl}, but ${opts.url !== undefined ? '--url' : 'FORGEFORM_URL'} is ${url}: using ${url}`));

  let credentials: Credentials;
  let source: string;
  if (opts.tokenFile) {
    let text: string;
    try {
      text = readFileSync(opts.tokenFile, 'utf8');
    } catch (e) {
      throw new UserError(`cannot read --token-file ${opts.tokenFile}: ${fileReason(e)}`);
    }
    source = `the token in --token-file ${opts.tokenFile}`;
    credentials = { token: checkToken(text.trim(), `--token-file ${opts.tokenFile}`) };
  } else if (env.FORGEFORM_TOKEN) {
    source = 'the token in FORGEFORM_TOKEN';
    credentials = { token: checkToken(env.FORGEFORM_TOKEN.trim(), 'FORGEFORM_TOKEN') };
  } else if (env.FORGEFORM_USERNAME && env.FORGEFORM_PASSWORD) {
    if (env.FORGEFORM_USERNAME.includes(':')) throw new UserError('FORGEFORM_USERNAME holds a ":", which HTTP Basic authentication cannot carry');
    source = `the password of ${env.FORGEFORM_USERNAME} (FORGEFORM_USERNAME and FORGEFORM_PASSWORD)`;
    credentials = { username: env.FORGEFORM_USERNAME, password: env.FORGEFORM_PASSWORD };
  } else {
    throw new UserError('no credentials: set FORGEFORM_TOKEN (or pass --token-file), or FORGEFORM_USERNAME and FORGEFORM_PASSWORD');
  }
  out.addSecrets('token' in credentials ? [credentials.token] : [credentials.password]);

  const concurrency = opts.concurrency === undefined ? 8 : Number(opts.concurrency);
  // Up to 64 is safe: a 429 or Retry-After pauses every request of the client, not one slot (src/gitea/client.ts).
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY)
    throw new UserError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}, got ${opts.concurrency}`);
  const timeout = opts.timeout === undefined ? 30 : Number(opts.timeout);
  if (!(timeout > 0) || timeout > MAX_TIMEOUT_SECONDS)
    throw new UserError(`--timeout must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, got ${opts.timeout}`);
  const retriesText = opts.retries ?? env.FORGEFORM_RETRY_LIMIT;
  const retries = retriesText === undefined ? undefined : Number(retriesText);
  // Imported here, not at the top: validate loads this module and needs no HTTP client.
  const { GiteaClient, MAX_RETRIES } = await import('../gitea/client.js');
  if (retries !== undefined && !(Number.isInteger(retries) && retries >= 0 && retries <= MAX_RETRIES))
    throw new UserError(`--retries must be a whole number from 0 to ${MAX_RETRIES}, got ${retriesText}`);
  const deadline = opts.readDeadline === undefined ? undefined : Number(opts.readDeadline);
  if (deadline !== undefined && !(deadline > 0 && deadline <= MAX_TIMEOUT_SECONDS))
    throw new UserError(`--read-deadline must be a number of seconds above 0 and at most ${MAX_TIMEOUT_SECONDS}, got ${opts.readDeadline}`);
  // Tuning knob for tests and unusual proxies; the default suits a real server.
  const retryDelay = env.FORGEFORM_RETRY_DELAY_MS ? Number(env.FORGEFORM_RETRY_DELAY_MS) : undefined;
  const client = new GiteaClient({
    url: parsed.toString(),
    credentials,
    concurrency,
    timeoutMs: Math.round(timeout * 1000),
    ...(retryDelay !== undefined ? { retryDelayMs: retryDelay } : {}),
    ...(retries !== undefined ? { retries } : {}),
    ...(deadline !== undefined ? { readDeadlineMs: Math.round(deadline * 1000) } : {}),
    onWarning: (message) => out.stderr(out.err.yellow(`warning: ${message}`)),
    onRetry: retryProgress(out),
    ...(onAnswer ? { onAnswer } : {}),
  });
  return { client, credentials: source };
}

/** Off a terminal or on one, one line per second at most about requests sent again: waits are never silent. */
const RETRY_LINE_EVERY_MS = 1000;

function retryProgress(out: Output): (info: RetryInfo) => void {
  let last = -Infinity;
  let since = 0;
  return ({ method, path, reason, retry, of, waitMs }) => {
    since++;
    const now = Date.now();
    if (now - last < RETRY_LINE_EVERY_MS) return;
    last = now;
    const others = since > 1 ? ` (${since - 1} other retr${since === 2 ? 'y' : 'ies'} since the last line)` : '';
    since = 0;
    out.stderr(out.err.yellow(`retrying ${method} /api/v1/${path.split('?')[0]}: ${excerpt(reason, 120, false)}; retry ${retry} of ${of}, in ${(waitMs / 1000).toFixed(1)} s${others}`));
  };
}

/** Where each client's credentials came from, for the preflight's message. */
const credentialSources = new WeakMap<GiteaClient, string>();

/** Server URL from --url, FORGEFORM_URL or server.url; credentials only from the environment or a file. Sends nothing. */
export async function makeClient(opts: ServerOptions, out: Output, configUrl?: string, configUrlSource?: string, onAnswer?: (a: ReadAnswer) => void): Promise<GiteaClient> {
  const { client, credentials } = await clientFor(opts, out, configUrl, configUrlSource, onAnswer);
  out.atEnd(() => client.close());
  credentialSources.set(client, credentials);
  return client;
}

/** --server-version as a server, checked before anything is read or sent. */
export function assumedServer(opts: { serverVersion?: string | undefined }): ServerInfo | undefined {
  if (opts.serverVersion === undefined) return undefined;
  const server = parseServerSpec(opts.serverVersion);
  if (typeof server === 'string') throw new UserError(`--server-version: ${server}`);
  return server;
}

/**
 * The preflight of a client from makeClient: the URL answers like Gitea or Forgejo and accepts the
 * credentials, and which fork and release it runs. --server-version replaces the detection (and so
 * the preflight's requests): the proxy it exists for hides /version.
 */
export async function checkServer(client: GiteaClient, opts: ServerOptions, out: Output): Promise<ServerInfo> {
  const assumed = assumedServer(opts);
  const { preflight } = await import('../gitea/preflight.js');
  let server = assumed;
  if (!server) {
    const report = await preflight(client, credentialSources.get(client) ?? 'the credentials');
    server = serverFromReports(report);
    if (!server)
      throw new UserError(
        `${client.baseUrl} reports version "${report.forgejo.version ?? report.version}", which is not a release number forgeform can compare: pass --server-version gitea@1.25 (or forgejo@11) to say which release it runs.`,
      );
  }
  if (olderThanKnown(server))
    out.stderr(out.err.yellow(`warning: ${describeServer(server)} is older than the oldest release forgeform knows (${server.flavour === 'gitea' ? 'Gitea' : 'Forgejo'} ${OLDEST_KNOWN[server.flavour]}): fields it lacks may be ignored without an error.`));
  return server;
}

/**
 * The client, after the preflight: the URL answers like Gitea or Forgejo and accepts the credentials.
 * Every command that reads state comes through here once, after all checks that need no server.
 */
export async function connect(opts: ServerOptions, out: Output, configUrl?: string, onAnswer?: (a: ReadAnswer) => void): Promise<{ client: GiteaClient; server: ServerInfo }> {
  const client = await makeClient(opts, out, configUrl, undefined, onAnswer);
  return { client, server: await checkServer(client, opts, out) };
}
