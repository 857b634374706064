import { describePolicy } from '../plan/safety.js';
import type { Plan } from '../model/index.js';
import { colors } from './color.js';
import { mdCodeBlock, mdText } from './inert.js';
import { rehearsalMarkdown } from './rehearsal.js';
import { keptLines, NO_CHANGES_BUT_DRIFT, NO_CHANGES_BUT_WITHHELD, noChangesLine, renderPlanText, serverLine, summaryLine, type KindTitle } from './text.js';

/**
 * For pull-request comments: no ANSI, the plan in a diff block that forges colour. Everything a server
 * or a config supplies is inert (src/render/inert.ts): outside the block escaped as markdown text, inside
 * it on lines the block's fence (longer than any run of backticks in them) cannot be closed by, so no
 * name can end the block, hide the changes after it in an HTML comment, or write "no changes" of its own.
 */
export function renderPlanMarkdown(plan: Plan, kindTitle?: KindTitle): string {
  const out: string[] = ['### forgeform plan', ''];
  const server = serverLine(plan);
  if (server) out.push(mdText(server), '');
  if (plan.changes.length === 0) {
    out.push(plan.withheld?.length ? NO_CHANGES_BUT_WITHHELD : plan.drift?.length ? NO_CHANGES_BUT_DRIFT : noChangesLine(plan));
    for (const w of plan.withheld ?? []) out.push('', `> **Not planned:** ${mdText(w)}`);
    for (const d of plan.drift ?? []) out.push('', `> **Differs:** ${mdText(d)}`);
    for (const k of keptLines(plan, kindTitle)) out.push('', `> **Kept:** ${mdText(k)}`);
    for (const w of plan.warnings) out.push('', `> **Warning:** ${mdText(w)}`);
    if (plan.rehearsal) out.push('', ...rehearsalMarkdown(plan.rehearsal));
    return out.join('\n') + '\n';
  }
  out.push(`**${summaryLine(plan)}**`, '');
  if (plan.policy) out.push(`Policy: ${mdText(describePolicy(plan.policy))}`, '');
  for (const u of plan.unsafe) out.push(`> **Unsafe:** ${mdText(u)}`, '');
  for (const d of plan.drift ?? []) out.push(`> **Differs:** ${mdText(d)}`, '');
  for (const w of plan.withheld ?? []) out.push(`> **Not planned:** ${mdText(w)}`, '');
  for (const k of keptLines(plan, kindTitle)) out.push(`> **Kept:** ${mdText(k)}`, '');
  const body = renderPlanText({ ...plan, server: { url: plan.server.url }, warnings: [], unsafe: [], drift: [], withheld: [], kept: [] }, colors(false), kindTitle)
    .split('\n')
    .filter((l) => !l.startsWith('Plan:') && !l.startsWith('Policy:') && l !== 'forgeform will perform the following actions:')
    .map((l) => l.replace(/^ {2}([+~\->#])/, '$1').replace(/^ {6}([+~])/, '$1     '));
  while (body.length && body[0] === '') body.shift();
  while (body.length && body[body.length - 1] === '') body.pop();
  out.push('<details open><summary>Changes</summary>', '', ...mdCodeBlock(body, 'diff'), '', '</details>');
  for (const w of plan.warnings) out.push('', `> **Warning:** ${mdText(w)}`);
  if (plan.rehearsal) out.push('', ...rehearsalMarkdown(plan.rehearsal));
  return out.join('\n') + '\n';
}
