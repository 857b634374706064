import type { Forge } from './forge.js';
import { BODY_LIMIT, cutMarkdown, markerComment } from './markdown.js';

const MARKER = markerComment('forgeform:drift');

export type DriftOutcome = { action: 'opened' | 'updated' | 'closed'; issue: number } | { action: 'none' };

/**
 * Keeps one open issue while the server drifts from the configuration: opened on the first drift,
 * its body replaced on every later one (never a second issue), closed with a comment by the first
 * run that finds no drift.
 */
export async function reportDrift(forge: Forge, title: string, drifted: boolean, markdown: string): Promise<DriftOutcome> {
  const open = await forge.findOpenIssues(title);
  const ours = open.find((i) => (i.body ?? '').includes(MARKER)) ?? open[0];
  if (drifted) {
    const body = `${MARKER}\n${cutMarkdown(markdown, BODY_LIMIT - MARKER.length - 1, 'The full plan is in the step summary of the workflow run.')}`;
    if (ours) {
      await forge.editIssue(ours.number, { body });
      return { action: 'updated', issue: ours.number };
    }
    const made = await forge.createIssue(title, body);
    return { action: 'opened', issue: made.number };
  }
  if (!ours) return { action: 'none' };
  await forge.createComment(ours.number, markdown);
  await forge.editIssue(ours.number, { state: 'closed' });
  return { action: 'closed', issue: ours.number };
}
