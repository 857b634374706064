import ky, { HTTPError, type KyInstance } from 'ky';

/**
 * The forge that hosts the workflow (GITHUB_API_URL: GitHub, or Gitea/Forgejo's `/api/v1`), which
 * may be another server than the one forgeform manages. Only endpoints the three forges share:
 * issue comments, and issue create / list / edit.
 */
export interface ForgeComment {
  id: number;
  body: string;
}

export interface ForgeIssue {
  number: number;
  title: string;
  body: string;
  state: string;
  pull_request?: unknown;
  html_url?: string;
}

export class ForgeError extends Error {}

/** What each answer means for the token, in the user's words. */
const PERMISSION_HINT: Record<number, string> = {
  401: 'the github-token was refused',
  403: 'the github-token may not do this: on GitHub grant `permissions: { pull-requests: write, issues: write }`; on Gitea/Forgejo use a token with write:issue',
  404: 'not found, or not visible to the github-token',
};

const PAGE_SIZE = 50;
const MAX_PAGES = 100;

export class Forge {
  private readonly http: KyInstance;

  constructor(
    apiUrl: string,
    token: string,
    readonly owner: string,
    readonly repo: string,
  ) {
    this.http = ky.create({
      prefixUrl: apiUrl.replace(/\/+$/, ''),
      // `token …` is accepted by GitHub (installation and personal tokens), Gitea and Forgejo alike.
      headers: { authorization: `token ${token}`, accept: 'application/json' },
      retry: { limit: 2, methods: ['get'], statusCodes: [429, 500, 502, 503, 504] },
      timeout: 30_000,
    });
  }

  private path(rest: string): string {
    return `repos/${encodeURIComponent(this.owner)}/${encodeURIComponent(this.repo)}/${rest}`;
  }

  private async call<T>(what: string, method: 'get' | 'post' | 'patch', rest: string, json?: unknown, searchParams?: Record<string, string | number>): Promise<{ body: T; headers: Headers }> {
    try {
      const res = await this.http(this.path(rest), { method, ...(json !== undefined ? { json } : {}), ...(searchParams ? { searchParams } : {}) });
      const text = await res.text();
      return { body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
    } catch (e) {
      if (e instanceof HTTPError) {
        let message = '';
        try {
          message = ((await e.response.clone().json()) as { message?: string }).message ?? '';
        } catch {
          /* not JSON */
        }
        const hint = PERMISSION_HINT[e.response.status];
        throw new ForgeError(`${what}: ${method.toUpperCase()} ${this.path(rest)} answered ${e.response.status}${message ? ` (${message})` : ''}${hint ? `: ${hint}` : ''}`);
      }
      throw new ForgeError(`${what}: ${method.toUpperCase()} ${this.path(rest)} failed: ${(e as Error).message}`);
    }
  }

  /**
   * Every item of a list. GitHub pages (`per_page`, `Link: rel="next"`); Gitea pages most lists
   * (`limit`, `X-Total-Count`) but returns ALL comments of an issue whatever the page says, so
   * items are collected by id and a page that adds nothing new ends the loop.
   */
  private async all<T extends { id?: number; number?: number }>(what: string, rest: string, query: Record<string, string> = {}): Promise<T[]> {
    const seen = new Map<number, T>();
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { body, headers } = await this.call<T[]>(what, 'get', rest, undefined, { ...query, page, limit: PAGE_SIZE, per_page: PAGE_SIZE });
      const items = Array.isArray(body) ? body : [];
      let added = 0;
      for (const item of items) {
        const key = item.id ?? item.number ?? seen.size;
        if (!seen.has(key)) added++;
        seen.set(key, item);
      }
      const total = Number(headers.get('x-total-count') ?? NaN);
      const hasNext = /rel="next"/.test(headers.get('link') ?? '');
      if (added === 0 || items.length === 0) break;
      if (Number.isFinite(total) ? seen.size >= total : !hasNext && items.length < PAGE_SIZE) break;
    }
    return [...seen.values()];
  }

  listComments(issue: number): Promise<ForgeComment[]> {
    return this.all<ForgeComment>(`reading the comments of #${issue}`, `issues/${issue}/comments`);
  }

  async createComment(issue: number, body: string): Promise<ForgeComment> {
    return (await this.call<ForgeComment>(`commenting on #${issue}`, 'post', `issues/${issue}/comments`, { body })).body;
  }

  async editComment(id: number, body: string): Promise<ForgeComment> {
    return (await this.call<ForgeComment>(`editing comment ${id}`, 'patch', `issues/comments/${id}`, { body })).body;
  }

  /** Open issues (not pull requests) with exactly this title; `q` narrows the search where the forge supports it. */
  async findOpenIssues(title: string): Promise<ForgeIssue[]> {
    const found = await this.all<ForgeIssue>(`searching for the issue "${title}"`, 'issues', { state: 'open', type: 'issues', q: title });
    return found.filter((i) => i.title === title && !i.pull_request && i.state === 'open').sort((a, b) => a.number - b.number);
  }

  async createIssue(title: string, body: string): Promise<ForgeIssue> {
    return (await this.call<ForgeIssue>(`opening the issue "${title}"`, 'post', 'issues', { title, body })).body;
  }

  async editIssue(issue: number, fields: { body?: string; state?: 'open' | 'closed' }): Promise<ForgeIssue> {
    return (await this.call<ForgeIssue>(`editing issue #${issue}`, 'patch', `issues/${issue}`, fields)).body;
  }
}
