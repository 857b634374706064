import { describePolicy } from '../plan/safety.js';
import type { Plan } from '../model/index.js';
import { colors } from './color.js';
import { NO_CHANGES_BUT_DRIFT, NO_CHANGES_BUT_WITHHELD, renderPlanText, serverLine, summaryLine, type KindTitle } from './text.js';

/** For pull-request comments: no ANSI, the plan in a diff block that forges colour. */
export function renderPlanMarkdown(plan: Plan, kindTitle?: KindTitle): string {
  const out: string[] = ['### forgeform plan', ''];
  const server = serverLine(plan);
  if (server) out.push(server, '');
  if (plan.changes.length === 0) {
    out.push(plan.withheld?.length ? NO_CHANGES_BUT_WITHHELD : plan.drift?.length ? NO_CHANGES_BUT_DRIFT : 'No changes. The server matches the configuration.');
    for (const w of plan.withheld ?? []) out.push('', `> **Not planned:** ${w}`);
    for (const d of plan.drift ?? []) out.push('', `> **Differs:** ${d}`);
    for (const w of plan.warnings) out.push('', `> **Warning:** ${w}`);
    return out.join('\n') + '\n';
  }
  out.push(`**${summaryLine(plan)}**`, '');
  if (plan.policy) out.push(`Policy: ${describePolicy(plan.policy)}`, '');
  for (const u of plan.unsafe) out.push(`> **Unsafe:** ${u}`, '');
  for (const d of plan.drift ?? []) out.push(`> **Differs:** ${d}`, '');
  for (const w of plan.withheld ?? []) out.push(`> **Not planned:** ${w}`, '');
  const body = renderPlanText({ ...plan, server: { url: plan.server.url }, warnings: [], unsafe: [], drift: [], withheld: [] }, colors(false), kindTitle)
    .split('\n')
    .filter((l) => !l.startsWith('Plan:') && !l.startsWith('Policy:') && l !== 'forgeform will perform the following actions:')
    .map((l) => l.replace(/^ {2}([+~\->])/, '$1').replace(/^ {6}([+~])/, '$1     '))
    .join('\n')
    .trim();
  out.push('<details open><summary>Changes</summary>', '', '```diff', body, '```', '', '</details>');
  for (const w of plan.warnings) out.push('', `> **Warning:** ${w}`);
  return out.join('\n') + '\n';
}
