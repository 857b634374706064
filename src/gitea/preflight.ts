import { AnswerError } from './answer.js';
import type { GiteaClient } from './client.js';
import { ApiError, describeBody, statusText } from './errors.js';

/** What the server says of itself; src/model/server.ts makes a release of it. */
export interface ServerReport {
  /** GET /api/v1/version: "1.25.4", "1.26.0+dev-12-gabc", "11.0.2+gitea-1.22.0". */
  version: string;
  /** GET /api/forgejo/v1/version, which only Forgejo serves. */
  forgejo: { version?: string; absent?: boolean };
}

/** The server is not one forgeform can talk to, or refused the credentials: a message for the user. */
export class PreflightError extends Error {
  override name = 'PreflightError';
}

/**
 * GET /version before any state is read. Gitea and Forgejo answer it without authentication
 * (routers/api/v1/misc/version.go, registered outside reqToken in routers/api/v1/api.go), but the
 * API's auth middleware that every route passes answers 401 to an invalid credential, so this request tells a wrong URL, an
 * unreachable host and a bad token apart before they surface as confusing errors on the first
 * repository ("does not exist") or the first write. Then GET /api/forgejo/v1/version tells the
 * forks apart: only Forgejo serves it (routers/api/forgejo/v1/api.go), Gitea answers 404.
 *
 * `credentials` says where the credentials came from ("the token in FORGEFORM_TOKEN"), for the 401 message.
 */
export async function preflight(client: GiteaClient, credentials: string): Promise<ServerReport> {
  // One after the other: a wrong URL or token gets a single request, and its message comes from /version.
  const version = await reportedVersion(client, credentials);
  return { version, forgejo: await forgejoVersion(client) };
}

/** What GET /api/forgejo/v1/version says: a version (Forgejo), absent (404: Gitea), or neither. */
async function forgejoVersion(client: GiteaClient): Promise<{ version?: string; absent?: boolean }> {
  try {
    const data = (await client.request('GET', 'version', { forgejoApi: true })).data as { version?: unknown } | undefined;
    return typeof data?.version === 'string' && data.version ? { version: data.version } : {};
  } catch (e) {
    if (e instanceof ApiError && e.status === 404) return { absent: true };
    if (e instanceof ApiError || e instanceof AnswerError) return {};
    throw e;
  }
}

async function reportedVersion(client: GiteaClient, credentials: string): Promise<string> {
  const base = client.baseUrl;
  const endpoint = `${base}/api/v1/version`;
  let data: unknown;
  try {
    data = (await client.request('GET', 'version')).data;
  } catch (e) {
    // The client refuses a 2xx that is not JSON of the expected shape: say it as for any other wrong answer.
    if (e instanceof AnswerError && e.answered) data = e.body;
    else if (!(e instanceof ApiError)) throw e;
    else throw new PreflightError(failureMessage(e, base, endpoint, credentials));
  }
  const version = (data as { version?: unknown } | undefined)?.version;
  if (data === null || typeof data !== 'object' || Array.isArray(data) || typeof version !== 'string' || !version)
    throw new PreflightError(`${base} is not a Gitea or Forgejo API: GET ${endpoint} answered ${describeBody(data)} instead of {"version": "…"}. ${urlAdvice(base)}`);
  return version;
}

function failureMessage(e: ApiError, base: string, endpoint: string, credentials: string): string {
  const network = e.network;
  if (network) return `cannot reach ${base}: ${network.reason}${network.code ? ` (${network.code})` : ''}; ${network.advice}.`;
  const status = `${e.status} ${statusText(e.status!)}${e.serverMessage ? ` (${e.serverMessage})` : ''}`.replace(/ +/g, ' ');
  if (e.status === 401) return `${credentials} is not valid for ${base}: GET /api/v1/version → ${status.replace(/ \((.*)\)$/, ': $1')}. Check it, or create a new token (Settings → Applications).`;
  if (e.status! >= 300 && e.status! < 400)
    return `${base} redirects the API (GET ${endpoint} → ${status}): use the URL it points to in --url or FORGEFORM_URL; forgeform does not follow redirects.`;
  if (e.status === 429 || e.status! >= 500) return `${base} failed to answer GET ${endpoint} (${status}), also after retries: try again later.`;
  return `${base} is not a Gitea or Forgejo API: GET ${endpoint} answered ${status}. ${urlAdvice(base)}`;
}

function urlAdvice(base: string): string {
  if (/\/api(\/v1)?$/.test(base)) return 'Give the server root without /api/v1 (for example https://git.example.com).';
  return 'Give the address of the Gitea or Forgejo server itself (for example https://git.example.com, or https://example.com/gitea behind a sub-path).';
}
