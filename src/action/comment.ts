import type { Forge } from './forge.js';
import { BODY_LIMIT, cutMarkdown, markerComment } from './markdown.js';

/**
 * One comment per pull request and configuration, found again by its hidden marker and edited in
 * place on every run, so that re-runs never pile up comments.
 */
export async function upsertStickyComment(forge: Forge, pr: number, marker: string, markdown: string): Promise<{ id: number; created: boolean }> {
  const hidden = markerComment(marker);
  const body = `${hidden}\n${cutMarkdown(markdown, BODY_LIMIT - hidden.length - 1, 'The full plan is in the step summary of the workflow run and in the saved plan file (artifact).')}`;
  const existing = (await forge.listComments(pr)).find((c) => typeof c.body === 'string' && c.body.includes(hidden));
  if (existing) {
    await forge.editComment(existing.id, body);
    return { id: existing.id, created: false };
  }
  const made = await forge.createComment(pr, body);
  return { id: made.id, created: true };
}
