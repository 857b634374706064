import { createPatch } from 'diff';
import type { ChangeResult } from '../apply/executor.js';
import { describePolicy } from '../plan/safety.js';
import { describeServer, type Change, type Plan } from '../model/index.js';
import type { Colors } from './color.js';
import { isMultiline, show } from './values.js';

const symbols = { create: '+', update: '~', delete: '-', rename: '>', replace: '-/+' } as const;

export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const replace = s.replace ? `, ${s.replace} to replace` : '';
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.rename} to rename${replace}.`;
}

/** "Server: Gitea 1.25.4 at https://git.example.com": what the plan was read from, as fields and requests depend on the release. */
export function serverLine(plan: Plan): string | undefined {
  const { url, flavour, version, assumed } = plan.server;
  if (!flavour || !version) return undefined;
  return `Server: ${describeServer({ flavour, version })} at ${url}${assumed ? ' (as --server-version says)' : ''}`;
}

export const NO_CHANGES_BUT_DRIFT = 'No changes planned, but the server differs from the configuration (see above).';
export const NO_CHANGES_BUT_WITHHELD = 'No changes planned for the rest, but declared objects could not be planned (see above).';

/** A kind's human name by its machine name (see kindTitles); without one, output shows machine names. */
export type KindTitle = (kind: string) => string;
const rawKind: KindTitle = (kind) => kind;

function title(change: Change, kindTitleOf: KindTitle): string {
  const kindTitle = kindTitleOf(change.kind);
  if (change.action === 'rename') return `${kindTitle} "${change.from}" → "${change.key}"`;
  if (change.action === 'replace') return `${kindTitle} "${change.key}" (replaced: deleted and created again)`;
  // One of several objects with this name: the planner gives its change id the object's id after #.
  const copy = change.action === 'delete' ? /#(\d+)$/.exec(change.id) : null;
  if (copy) return `${kindTitle} "${change.key}" (duplicate, id ${copy[1]})`;
  return `${kindTitle} "${change.key}"`;
}

/** "repo:acme/widgets", "org:acme", and "server" for server-wide objects (users, hooks, runners). */
export function scopeLabel(scope: string): string {
  return scope === 'server:' ? 'server' : scope;
}

export function changeHeadline(change: Change, kindTitle: KindTitle = rawKind): string {
  return `${symbols[change.action]} ${title(change, kindTitle)}`;
}

/** A plan as Terraform prints one: changes grouped by scope, one line per changed field. */
export function renderPlanText(plan: Plan, c: Colors, kindTitle: KindTitle = rawKind): string {
  const lines: string[] = [];
  const paint = { create: c.green, update: c.yellow, delete: c.red, rename: c.cyan, replace: c.magenta } as const;
  const server = serverLine(plan);
  if (server) lines.push(c.dim(server), '');
  for (const w of plan.warnings) lines.push(c.yellow(`Warning: ${w}`));
  if (plan.warnings.length) lines.push('');
  for (const d of plan.drift ?? []) lines.push(c.yellow(`Differs: ${d}`));
  if (plan.drift?.length) lines.push('');
  for (const w of plan.withheld ?? []) lines.push(c.red(`Not planned: ${w}`));
  if (plan.withheld?.length) lines.push('');
  if (plan.changes.length === 0) {
    lines.push(plan.withheld?.length ? c.red(NO_CHANGES_BUT_WITHHELD) : plan.drift?.length ? c.yellow(NO_CHANGES_BUT_DRIFT) : c.green('No changes. The server matches the configuration.'));
    return lines.join('\n') + '\n';
  }
  lines.push('forgeform will perform the following actions:', '');
  let scope = '';
  for (const ch of plan.changes) {
    if (ch.scope !== scope) {
      if (scope) lines.push('');
      scope = ch.scope;
      lines.push(c.bold(`  # ${scopeLabel(scope)}`));
    }
    const p = paint[ch.action];
    lines.push(p(`  ${changeHeadline(ch, kindTitle)}`));
    const width = Math.max(0, ...ch.fields.map((f) => f.path.length));
    for (const f of ch.fields) {
      if (ch.action === 'rename' && f.path === 'name') continue;
      // A value the change's requests depend on (an organisation's owner, a user's purge): shown, never compared.
      if (f.context) lines.push(`      ${c.dim('with')} ${f.path} = ${show(f.after, f.sensitive)}`);
      else if (isMultiline(f)) {
        lines.push(`      ${symbols[ch.action === 'create' ? 'create' : 'update']} ${f.path}:`);
        const patch = createPatch(f.path, String(f.before ?? ''), String(f.after ?? ''), '', '', { context: 3 });
        for (const l of patch.split('\n').slice(4)) {
          if (!l) continue;
          const painted = l.startsWith('+') ? c.green(l) : l.startsWith('-') ? c.red(l) : l.startsWith('@@') ? c.cyan(l) : l;
          lines.push(`          ${painted}`);
        }
      } else if (ch.action === 'create' || f.before === undefined) {
        const note = f.writeOnly ? c.dim('  (write-only: sent, never read back)') : '';
        lines.push(`      ${c.green('+')} ${f.path.padEnd(width)} = ${show(f.after, f.sensitive)}${note}`);
      } else {
        lines.push(`      ${c.yellow('~')} ${f.path.padEnd(width)}: ${show(f.before, f.sensitive)} → ${show(f.after, f.sensitive)}`);
      }
    }
    for (const n of ch.notes ?? []) lines.push(c.dim(`      # ${n}`));
  }
  lines.push('');
  for (const u of plan.unsafe) lines.push(c.red(`Unsafe: ${u}`));
  // The policy decides what apply allows: shown, so that an edit of a saved plan's policy is visible.
  if (plan.policy) lines.push(c.dim(`Policy: ${describePolicy(plan.policy)}`));
  lines.push(c.bold(summaryLine(plan)));
  return lines.join('\n') + '\n';
}

export function renderResultLine(r: ChangeResult, c: Colors, kindTitle: KindTitle = rawKind): string {
  const head = `${changeHeadline(r.change, kindTitle)} in ${scopeLabel(r.change.scope)}`;
  if (r.outcome === 'done') {
    const extra = r.notTaken?.length ? c.yellow(` (the server did not take: ${r.notTaken.join('; ')})`) : '';
    const notes = r.notes?.length ? c.dim(` (${r.notes.join('; ')})`) : '';
    return `${c.green('✓')} ${head}${extra}${notes}`;
  }
  if (r.outcome === 'skipped') return `${c.yellow('○')} ${head}: skipped, ${r.error}`;
  return `${c.red('✗')} ${head}: ${r.error}`;
}

export function renderApplySummary(results: ChangeResult[], c: Colors): string {
  const done = results.filter((r) => r.outcome === 'done');
  const count = (a: string) => done.filter((r) => r.change.action === a).length;
  const failed = results.filter((r) => r.outcome === 'failed').length;
  const skipped = results.filter((r) => r.outcome === 'skipped').length;
  const replaced = count('replace') ? `, ${count('replace')} replaced` : '';
  const line = `Apply ${failed || skipped ? 'incomplete' : 'complete'}! ${count('create')} created, ${count('update')} updated, ${count('delete')} deleted, ${count('rename')} renamed${replaced}` +
    (failed || skipped ? `, ${failed} failed, ${skipped} skipped.` : '.');
  return failed || skipped ? c.red(c.bold(line)) : c.green(c.bold(line));
}
