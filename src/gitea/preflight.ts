import { AnswerError } from './answer.js';
import type { GiteaClient } from './client.js';
import { ApiError, describeBody, statusText } from './errors.js';

/**
 * What forgeform learnt about the server before reading any state. Kept as an object so that later
 * facts (Gitea or Forgejo, feature switches) join the version here rather than in every caller.
 */
export interface ServerInfo {
  /** As the server states it: "1.24.3", "11.0.1+gitea-1.22.0", "1.25.0+dev-123-gabc". */
  version: string;
}

/** The server is not one forgeform can talk to, or refused the credentials: a message for the user. */
export class PreflightError extends Error {
  override name = 'PreflightError';
}

/**
 * One GET /version before any state is read. Gitea and Forgejo answer it without authentication
 * but with 401 to any invalid credential (behavior.md §1.1, §9), so this single request tells a
 * wrong URL, an unreachable host and a bad token apart before they surface as confusing errors on
 * the first repository ("does not exist") or the first write.
 *
 * `credentials` says where the credentials came from ("the token in FORGEFORM_TOKEN"), for the 401 message.
 */
export async function preflight(client: GiteaClient, credentials: string): Promise<ServerInfo> {
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
  return { version };
}

function failureMessage(e: ApiError, base: string, endpoint: string, credentials: string): string {
  const network = e.network;
  if (network) return `cannot reach ${base}: ${network.reason}${network.code ? ` (${network.code})` : ''}; ${network.advice}.`;
  const status = `${e.status} ${statusText(e.status!)}${e.serverMessage ? ` (${e.serverMessage})` : ''}`.replace(/ +/g, ' ');
  if (e.status === 401) return `${credentials} is not valid for ${base}: GET /api/v1/version → ${status.replace(/ \((.*)\)$/, ': $1')}. Check it, or create a new token (Settings → Applications).`;
  if (e.status! >= 300 && e.status! < 400)
    return `${base} redirects the API (GET ${endpoint} → ${status}): use the URL it points to in --url, FORGEFORM_URL or server.url; forgeform does not follow redirects.`;
  if (e.status === 429 || e.status! >= 500) return `${base} failed to answer GET ${endpoint} (${status}), also after retries: try again later.`;
  return `${base} is not a Gitea or Forgejo API: GET ${endpoint} answered ${status}. ${urlAdvice(base)}`;
}

function urlAdvice(base: string): string {
  if (/\/api(\/v1)?$/.test(base)) return 'Give the server root without /api/v1 (for example https://git.example.com).';
  return 'Give the address of the Gitea or Forgejo server itself (for example https://git.example.com, or https://example.com/gitea behind a sub-path).';
}
