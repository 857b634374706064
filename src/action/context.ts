import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** What the runner tells every step through its environment (the same names on GitHub, Gitea and Forgejo). */
export interface RunnerContext {
  workspace: string;
  apiUrl: string;
  serverUrl: string;
  repository: { owner: string; repo: string } | undefined;
  /** The pull request of a pull_request(_target) or issue_comment-on-a-PR event. */
  pullRequest: number | undefined;
  /** The commit that was planned: the PR head (not the merge commit GITHUB_SHA points at), else GITHUB_SHA. */
  sha: string;
  /** GITHUB_SHA: on a push, the commit pushed (a merge commit); on a pull request, the test merge. */
  commit: string;
  eventName: string;
  /** A merged pull request of a `pull_request: closed` event. */
  merged: { number: number; head: string; mergeCommit: string } | undefined;
  /** Which forge runs the workflow: links to a run differ. */
  forge: 'github' | 'gitea' | 'forgejo';
  runId: string;
  runNumber: string;
  tempDir: string;
}

interface EventPayload {
  pull_request?: { number?: number; head?: { sha?: string }; merged?: boolean; merge_commit_sha?: string | null };
  issue?: { number?: number; pull_request?: unknown };
}

function readEvent(path: string | undefined): EventPayload {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as EventPayload;
  } catch {
    return {};
  }
}

export function runnerContext(env: NodeJS.ProcessEnv = process.env): RunnerContext {
  const event = readEvent(env.GITHUB_EVENT_PATH);
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  const serverUrl = (env.GITHUB_SERVER_URL ?? '').replace(/\/+$/, '');
  const pr = event.pull_request?.number ?? (event.issue?.pull_request ? event.issue.number : undefined);
  return {
    workspace: env.GITHUB_WORKSPACE ?? process.cwd(),
    apiUrl: env.GITHUB_API_URL ?? '',
    serverUrl,
    repository: owner && repo ? { owner, repo } : undefined,
    pullRequest: typeof pr === 'number' ? pr : undefined,
    sha: event.pull_request?.head?.sha ?? env.GITHUB_SHA ?? '',
    commit: env.GITHUB_SHA ?? '',
    eventName: env.GITHUB_EVENT_NAME ?? '',
    merged:
      event.pull_request?.merged === true && typeof event.pull_request.number === 'number'
        ? { number: event.pull_request.number, head: event.pull_request.head?.sha ?? '', mergeCommit: event.pull_request.merge_commit_sha ?? '' }
        : undefined,
    // act_runner sets GITEA_ACTIONS, Forgejo's runner FORGEJO_ACTIONS (and GITEA_ACTIONS too).
    forge: env.FORGEJO_ACTIONS === 'true' ? 'forgejo' : env.GITEA_ACTIONS === 'true' ? 'gitea' : 'github',
    runId: env.GITHUB_RUN_ID ?? '',
    runNumber: env.GITHUB_RUN_NUMBER ?? '',
    tempDir: env.RUNNER_TEMP ?? '',
  };
}

/**
 * The page of this workflow run. GitHub addresses a run by its id (GITHUB_RUN_ID); Forgejo and
 * Gitea before 1.26 by its number in the repository (GITHUB_RUN_NUMBER: their GITHUB_RUN_ID is a
 * database id that 404s there); Gitea 1.26 and later by its id, as GitHub (go-gitea/gitea#36842,
 * "Replace index with id in actions routes"). `forgeVersion` is the forge's `/version`.
 */
export function runUrl(ctx: RunnerContext, forgeVersion: string | undefined): string | undefined {
  if (!ctx.serverUrl || !ctx.repository) return undefined;
  const base = `${ctx.serverUrl}/${ctx.repository.owner}/${ctx.repository.repo}/actions/runs/`;
  if (ctx.forge === 'github') return ctx.runId ? base + ctx.runId : undefined;
  const forgejo = ctx.forge === 'forgejo' || /forgejo|\+gitea/i.test(forgeVersion ?? '');
  const m = /^v?(\d+)\.(\d+)/.exec(forgeVersion ?? '');
  const byId = !forgejo && m !== null && (Number(m[1]) > 1 || Number(m[2]) >= 26);
  const id = byId ? ctx.runId : ctx.runNumber;
  return id ? base + id : undefined;
}

/** A path for an annotation: relative to the workspace (where the forge finds the file), POSIX separators. */
export function workspacePath(file: string, cwd: string, workspace: string): string {
  const abs = resolve(cwd, file);
  const rel = relative(workspace, abs);
  return (rel.startsWith('..') || isAbsolute(rel) ? abs : rel).split(sep).join('/');
}
