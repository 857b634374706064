import ky, { HTTPError, type KyInstance } from 'ky';

/**
 * The forge that hosts the workflow (GITHUB_API_URL: GitHub, or Gitea/Forgejo's `/api/v1`), which
 * may be another server than the one forgeform manages. Only endpoints the three forges share:
 * issue comments, and issue create / list / edit.
 */
export interface ForgeUser {
  login: string;
  id?: number;
}

export interface ForgeComment {
  id: number;
  body: string;
  user?: ForgeUser | null;
}

/** The fields of a pull request the action reads (the same names on GitHub, Gitea and Forgejo). */
export interface ForgePull {
  number: number;
  merged?: boolean;
  /** GitHub's lists say merged_at, not merged. */
  merged_at?: string | null;
  merge_commit_sha?: string | null;
  head?: { sha?: string };
  html_url?: string;
}

export interface ForgeIssue {
  number: number;
  title: string;
  body: string;
  state: string;
  pull_request?: unknown;
  html_url?: string;
  user?: ForgeUser | null;
}

export class ForgeError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * Who writes with a workflow's own token when the forge will not say (`GET /user` answers 403 to
 * GitHub's installation token): the bot users of the three forges' job tokens.
 */
const JOB_TOKEN_USERS = ['github-actions[bot]', 'gitea-actions', 'forgejo-actions'];

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

  private async call<T>(what: string, method: 'get' | 'post' | 'patch', rest: string, json?: unknown, searchParams?: Record<string, string | number>, top = false): Promise<{ body: T; headers: Headers }> {
    const path = top ? rest : this.path(rest);
    try {
      const res = await this.http(path, { method, ...(json !== undefined ? { json } : {}), ...(searchParams ? { searchParams } : {}) });
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
        throw new ForgeError(`${what}: ${method.toUpperCase()} ${path} answered ${e.response.status}${message ? ` (${message})` : ''}${hint ? `: ${hint}` : ''}`, e.response.status);
      }
      throw new ForgeError(`${what}: ${method.toUpperCase()} ${path} failed: ${(e as Error).message}`);
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

  /**
   * The user the token writes as: only comments and issues of this user are ever adopted, so that
   * nobody else can plant a marker (or a reviewed plan) for the action to trust.
   */
  async me(): Promise<string[]> {
    try {
      const { body } = await this.call<ForgeUser>('finding the user of the github-token', 'get', 'user', undefined, undefined, true);
      if (body?.login) return [body.login];
    } catch (e) {
      if (!(e instanceof ForgeError && (e.status === 403 || e.status === 401 || e.status === 404))) throw e;
    }
    return JOB_TOKEN_USERS;
  }

  /**
   * The merged pull request of a commit: GitHub's `commits/{sha}/pulls` (a list), else Gitea's and
   * Forgejo's `commits/{sha}/pull`. Undefined when neither knows one.
   */
  async pullOfCommit(sha: string): Promise<ForgePull | undefined> {
    const what = `finding the pull request merged as ${sha.slice(0, 12)}`;
    for (const [rest, pick] of [
      [`commits/${sha}/pulls`, (b: unknown) => (Array.isArray(b) ? (b as ForgePull[]).find((p) => p.merge_commit_sha === sha || p.merged || p.merged_at) : undefined)],
      [`commits/${sha}/pull`, (b: unknown) => (b && !Array.isArray(b) ? (b as ForgePull) : undefined)],
    ] as const) {
      try {
        const found = pick((await this.call<unknown>(what, 'get', rest)).body);
        if (found) return found;
      } catch (e) {
        if (!(e instanceof ForgeError && e.status === 404)) throw e;
      }
    }
    return undefined;
  }

  /** The forge's release (`/version` of Gitea and Forgejo), or undefined where there is none. */
  async version(): Promise<string | undefined> {
    try {
      return (await this.call<{ version?: string }>('reading the version of the forge', 'get', 'version', undefined, undefined, true)).body?.version;
    } catch {
      return undefined;
    }
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

  /** Open issues (not pull requests) with exactly this title, opened by one of `authors`; `q` narrows the search where the forge supports it. */
  async findOpenIssues(title: string, authors: string[]): Promise<ForgeIssue[]> {
    const found = await this.all<ForgeIssue>(`searching for the issue "${title}"`, 'issues', { state: 'open', type: 'issues', q: title });
    return found.filter((i) => i.title === title && !i.pull_request && i.state === 'open' && authors.includes(i.user?.login ?? '')).sort((a, b) => a.number - b.number);
  }

  async createIssue(title: string, body: string): Promise<ForgeIssue> {
    return (await this.call<ForgeIssue>(`opening the issue "${title}"`, 'post', 'issues', { title, body })).body;
  }

  async editIssue(issue: number, fields: { body?: string; state?: 'open' | 'closed' }): Promise<ForgeIssue> {
    return (await this.call<ForgeIssue>(`editing issue #${issue}`, 'patch', `issues/${issue}`, fields)).body;
  }
}
