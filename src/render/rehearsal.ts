import type { Rehearsal, RehearsalProblem } from '../model/index.js';
import type { Colors } from './color.js';
import { inert, mdCodeBlock, mdText } from './inert.js';

/** Whether the rehearsal found the plan would not go through, or not leave nothing behind (exit 4). */
export function rehearsalFailed(r: Rehearsal): boolean {
  return r.problems.some((p) => p.what === 'failed' || p.what === 'not-converged' || p.what === 'plan-failed');
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "Rehearsed on a copy of gitea 1.25.4: 45 changes applied, 0 failed; the plan after it is empty". */
export function rehearsalHeadline(r: Rehearsal): string {
  if (!r.rehearsed) return `Not rehearsed: ${r.reason ?? 'no copy could be made'}`;
  const count = (w: RehearsalProblem['what']) => r.problems.filter((p) => p.what === w).length;
  const failed = count('failed');
  const left = count('not-converged');
  const skipped = count('not-rehearsed');
  const after = count('plan-failed') ? 'the plan after it failed' : left ? `the plan after it is not empty (${plural(left, 'change')} would not converge)` : 'the plan after it is empty';
  const server = r.server ? ` (the server runs ${r.server})` : '';
  return `Rehearsed on a copy of ${r.release}${server}: ${plural(r.applied, 'change')} applied, ${failed} failed${skipped ? `, ${skipped} not rehearsed` : ''}; ${after}`;
}

const LABEL: Record<RehearsalProblem['what'], string> = { failed: 'Failed', 'not-converged': 'Would not converge', 'not-rehearsed': 'Not rehearsed', 'plan-failed': 'The plan after it failed' };

/** One line per problem (its change, what the copy answered), then its requests indented. */
export function rehearsalProblemLines(r: Rehearsal): string[] {
  return r.problems.flatMap((p) => [
    `${LABEL[p.what]}: ${p.change ? `${inert(p.change)}: ` : ''}${inert(p.message)}`,
    ...(p.requests ?? []).map((q) => `    ${inert(q)}`),
  ]);
}

/** The rehearsal's part of the text output, after the plan. */
export function renderRehearsalText(r: Rehearsal, c: Colors): string {
  const bad = rehearsalFailed(r);
  const lines = ['', (bad || !r.rehearsed ? c.red : c.green)(rehearsalHeadline(r))];
  for (const l of rehearsalProblemLines(r)) lines.push(l.startsWith('    ') ? l : (l.startsWith('Not rehearsed') ? c.yellow : c.red)(l));
  for (const l of r.limits) lines.push(c.dim(`Limit: ${inert(l)}`));
  return lines.join('\n') + '\n';
}

/** The rehearsal's part of a pull-request comment: the headline, each problem with its requests in a block, the limits folded. */
export function rehearsalMarkdown(r: Rehearsal): string[] {
  const out = [`**${mdText(rehearsalHeadline(r))}**`];
  const lines = rehearsalProblemLines(r);
  if (lines.length) out.push('', ...mdCodeBlock(lines, 'text'));
  if (r.limits.length) out.push('', '<details><summary>What the rehearsal does not show</summary>', '', ...r.limits.map((l) => `- ${mdText(l)}`), '', '</details>');
  return out;
}
