import type { Forge, ForgeComment } from './forge.js';
import { BODY_LIMIT, cutMarkdown, markerComment } from './markdown.js';

/**
 * One comment per pull request and configuration (and shard), found again by its hidden marker and
 * edited in place on every run, so that re-runs never pile up comments. Only a comment written by
 * the workflow's own user (`authors`, from {@link Forge.me}) is ever adopted: anyone can write the
 * marker into a comment of their own, and the action must neither edit it nor trust what it says.
 */
export async function findStickyComment(forge: Forge, pr: number, marker: string, authors: string[]): Promise<ForgeComment | undefined> {
  const hidden = markerComment(marker);
  return (await forge.listComments(pr)).find((c) => typeof c.body === 'string' && c.body.startsWith(hidden) && authors.includes(c.user?.login ?? ''));
}

/**
 * The comment's body: the marker and the hidden lines first (a cut never removes them), then the
 * markdown, cut to what every forge accepts.
 */
export function stickyBody(marker: string, hiddenLines: string[], markdown: string): string {
  const head = [markerComment(marker), ...hiddenLines].join('\n');
  return `${head}\n${cutMarkdown(markdown, BODY_LIMIT - head.length - 1, 'The full plan is in the step summary of the workflow run.')}`;
}

export async function upsertStickyComment(
  forge: Forge,
  pr: number,
  marker: string,
  authors: string[],
  body: string,
  existing?: ForgeComment,
): Promise<{ id: number; created: boolean }> {
  const found = existing ?? (await findStickyComment(forge, pr, marker, authors));
  if (found) {
    await forge.editComment(found.id, body);
    return { id: found.id, created: false };
  }
  const made = await forge.createComment(pr, body);
  return { id: made.id, created: true };
}
