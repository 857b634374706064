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
  runUrl: string | undefined;
  tempDir: string;
}

interface EventPayload {
  pull_request?: { number?: number; head?: { sha?: string } };
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
    runUrl: serverUrl && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID ? `${serverUrl}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}` : undefined,
    tempDir: env.RUNNER_TEMP ?? '',
  };
}

/** A path for an annotation: relative to the workspace (where the forge finds the file), POSIX separators. */
export function workspacePath(file: string, cwd: string, workspace: string): string {
  const abs = resolve(cwd, file);
  const rel = relative(workspace, abs);
  return (rel.startsWith('..') || isAbsolute(rel) ? abs : rel).split(sep).join('/');
}
