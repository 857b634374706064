import type { Forge } from './forge.js';
import { BODY_LIMIT, cutMarkdown, markerComment } from './markdown.js';

export type IssueOutcome = { action: 'opened' | 'updated' | 'closed'; issue: number } | { action: 'none' };

/**
 * Keeps one open issue while a condition lasts (the server drifted; a merged change was not
 * applied): opened the first time, its body replaced every later time (never a second issue),
 * closed with a comment by the first run that finds the condition gone. Only an issue opened by the
 * workflow's own user (`authors`) and carrying the marker is ever adopted.
 */
export async function keepIssue(
  forge: Forge,
  opts: { title: string; marker: string; authors: string[] },
  open: boolean,
  markdown: string,
  closingComment: string,
): Promise<IssueOutcome> {
  const marker = markerComment(opts.marker);
  const found = await forge.findOpenIssues(opts.title, opts.authors);
  const ours = found.find((i) => (i.body ?? '').startsWith(marker));
  if (open) {
    const body = `${marker}\n${cutMarkdown(markdown, BODY_LIMIT - marker.length - 1, 'The full plan is in the step summary of the workflow run.')}`;
    if (ours) {
      await forge.editIssue(ours.number, { body });
      return { action: 'updated', issue: ours.number };
    }
    const made = await forge.createIssue(opts.title, body);
    return { action: 'opened', issue: made.number };
  }
  if (!ours) return { action: 'none' };
  await forge.createComment(ours.number, closingComment);
  await forge.editIssue(ours.number, { state: 'closed' });
  return { action: 'closed', issue: ours.number };
}
