import { createPatch } from 'diff';
import type { ChangeResult } from '../apply/executor.js';
import { describePolicy } from '../plan/safety.js';
import { describeServer, intentOf, isRenamedName, type Change, type FieldChange, type Plan } from '../model/index.js';
import type { Colors } from './color.js';
import { inert, quoteName } from './inert.js';
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
  // The version string and the URL are the server's: inert, so that neither can redraw the lines around them.
  return `Server: ${inert(describeServer({ flavour, version }))} at ${inert(url)}${assumed ? ' (as --server-version says)' : ''}`;
}

/**
 * "3 labels in acme/widgets are not declared: kept; add labels to policy.prune to delete them ("a", "b", "c")":
 * one line per kind and scope of Plan.kept, names from the server (made inert by the caller's line).
 */
export function keptLines(plan: Plan, kindTitle: KindTitle = rawKind): string[] {
  return (plan.kept ?? []).map((k) => {
    const n = k.keys.length;
    const what = n === 1 ? kindTitle(k.kind) : k.prune_key.replace(/_/g, ' ');
    const colon = k.scope.indexOf(':');
    const where = colon < 0 || k.scope.slice(colon + 1) === '' ? 'on the server' : `in ${k.scope.slice(colon + 1)}`;
    const shown = k.keys.slice(0, KEPT_SHOWN).map((key) => quoteName(key)).join(', ') + (n > KEPT_SHOWN ? ` and ${n - KEPT_SHOWN} more` : '');
    return `${n} ${what} ${where} ${n === 1 ? 'is' : 'are'} not declared: kept; add ${k.prune_key} to policy.prune to delete ${n === 1 ? 'it' : 'them'} (${shown})`;
  });
}

/** How many names of kept objects a line shows (--format json lists them all). */
const KEPT_SHOWN = 10;

/** "No changes" with what else the managed scopes hold, when they hold any (Plan.kept). */
export function noChangesLine(plan: Plan): string {
  const kept = (plan.kept ?? []).reduce((n, k) => n + k.keys.length, 0);
  if (!kept) return 'No changes. The server matches the configuration.';
  return `No changes. The declared objects match the server; ${kept} object${kept === 1 ? '' : 's'} it does not declare ${kept === 1 ? 'is' : 'are'} kept (Kept, above).`;
}

export const NO_CHANGES_BUT_DRIFT = 'No changes planned, but the server differs from the configuration (see above).';
export const NO_CHANGES_BUT_WITHHELD = 'No changes planned for the rest, but declared objects could not be planned (see above).';

/** A kind's human name by its machine name (see kindTitles); without one, output shows machine names. */
export type KindTitle = (kind: string) => string;
const rawKind: KindTitle = (kind) => kind;

/** A change's object, its name quoted and escaped: a name is the server's (or the config's), and must stay on its line. */
function title(change: Change, kindTitleOf: KindTitle): string {
  const kindTitle = inert(kindTitleOf(change.kind));
  const key = quoteName(change.key);
  const { from, copy } = intentOf(change);
  if (change.action === 'rename') return `${kindTitle} ${quoteName(from ?? '')} → ${key}`;
  if (change.action === 'replace') return `${kindTitle} ${key} (replaced: deleted and created again)`;
  // One of several objects with this name: the change addresses its copy by id.
  if (copy !== undefined) return `${kindTitle} ${key} (duplicate, id ${copy})`;
  return `${kindTitle} ${key}`;
}

/** "repo:acme/widgets", "org:acme", and "server" for server-wide objects (users, hooks, runners). */
export function scopeLabel(scope: string): string {
  return scope === 'server:' ? 'server' : inert(scope);
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
  // Warnings, drift, notes and reasons quote names from the server: each is made inert, one line.
  for (const w of plan.warnings) lines.push(c.yellow(`Warning: ${inert(w)}`));
  if (plan.warnings.length) lines.push('');
  for (const d of plan.drift ?? []) lines.push(c.yellow(`Differs: ${inert(d)}`));
  if (plan.drift?.length) lines.push('');
  for (const w of plan.withheld ?? []) lines.push(c.red(`Not planned: ${inert(w)}`));
  if (plan.withheld?.length) lines.push('');
  const kept = keptLines(plan, kindTitle);
  for (const k of kept) lines.push(c.dim(`Kept: ${inert(k)}`));
  if (kept.length) lines.push('');
  if (plan.changes.length === 0) {
    lines.push(plan.withheld?.length ? c.red(NO_CHANGES_BUT_WITHHELD) : plan.drift?.length ? c.yellow(NO_CHANGES_BUT_DRIFT) : c.green(noChangesLine(plan)));
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
    const width = Math.max(0, ...ch.fields.map((f) => inert(f.path).length));
    for (const f of ch.fields) {
      // The headline shows a rename's old and new name.
      if (isRenamedName(ch.action, f.path)) continue;
      const path = inert(f.path);
      // plan --explain: where the configuration sets it.
      const from = f.source ? c.dim(`  # ${inert(f.source)}`) : '';
      // A value the change's requests depend on (an organisation's owner, a user's purge): shown, never compared.
      if (f.context) lines.push(`      ${c.dim('with')} ${path} = ${show(f.after, f.sensitive)}`);
      else if (isMultiline(f)) {
        lines.push(`      ${symbols[ch.action === 'create' ? 'create' : 'update']} ${path}:${from}`);
        const patch = createPatch(f.path, String(f.before ?? ''), String(f.after ?? ''), '', '', { context: 3 });
        for (const raw of patch.split('\n').slice(4)) {
          if (!raw) continue;
          // A line of the value: its control and bidi characters escaped (a CR, an ESC, U+202E stay visible).
          const l = inert(raw);
          const painted = l.startsWith('+') ? c.green(l) : l.startsWith('-') ? c.red(l) : l.startsWith('@@') ? c.cyan(l) : l;
          lines.push(`          ${painted}`);
        }
      } else if (ch.action !== 'create' && isSetChange(f)) {
        // A set (members, repositories, user lists): each element added or removed on its line, as each is one request.
        lines.push(`      ${c.yellow('~')} ${path}:${from}`);
        for (const [sign, value] of setElements(f)) lines.push(`          ${sign === '+' ? c.green('+') : c.red('-')} ${show(value)}`);
      } else if (ch.action === 'create' || f.before === undefined) {
        const note = f.writeOnly ? c.dim('  (write-only: sent, never read back)') : '';
        lines.push(`      ${c.green('+')} ${path.padEnd(width)} = ${show(f.after, f.sensitive, f.abbreviated)}${note}${from}`);
      } else {
        lines.push(`      ${c.yellow('~')} ${path.padEnd(width)}: ${show(f.before, f.sensitive, f.abbreviated)} → ${show(f.after, f.sensitive, f.abbreviated)}${from}`);
      }
    }
    for (const n of ch.notes ?? []) lines.push(c.dim(`      # ${inert(n)}`));
  }
  lines.push('');
  for (const u of plan.unsafe) lines.push(c.red(`Unsafe: ${inert(u)}`));
  // The policy decides what apply allows: shown, so that an edit of a saved plan's policy is visible.
  if (plan.policy) lines.push(c.dim(`Policy: ${inert(describePolicy(plan.policy))}`));
  lines.push(c.bold(summaryLine(plan)));
  return lines.join('\n') + '\n';
}

/** A change of a set whose elements are written one by one (FieldChange.elements): both sides lists, never a secret. */
function isSetChange(f: FieldChange): f is FieldChange & { before: unknown[]; after: unknown[] } {
  return f.elements === true && !f.sensitive && !f.context && Array.isArray(f.before) && Array.isArray(f.after);
}

/** The elements a set change adds (+) and removes (-), added first, each once. */
function setElements(f: { before: unknown[]; after: unknown[] }): ['+' | '-', unknown][] {
  const key = (v: unknown) => JSON.stringify(v);
  const before = new Set(f.before.map(key));
  const after = new Set(f.after.map(key));
  return [...f.after.filter((v) => !before.has(key(v))).map((v) => ['+', v] as ['+', unknown]), ...f.before.filter((v) => !after.has(key(v))).map((v) => ['-', v] as ['-', unknown])];
}

export function renderResultLine(r: ChangeResult, c: Colors, kindTitle: KindTitle = rawKind): string {
  const head = `${changeHeadline(r.change, kindTitle)} in ${scopeLabel(r.change.scope)}`;
  if (r.outcome === 'done') {
    const notes = r.notes?.length ? c.dim(` (${inert(r.notes.join('; '))})`) : '';
    // Sent, and answered with other values than sent: an inconsistent result, which fails the run.
    if (r.notTaken?.length) return `${c.red('✗')} ${head}: inconsistent result after apply: ${inert(r.release ?? 'the server')} did not take ${inert(r.notTaken.join('; '))}${notes}`;
    return `${c.green('✓')} ${head}${notes}`;
  }
  // The error quotes the server's answer: inert, one line.
  if (r.outcome === 'skipped') return `${c.yellow('○')} ${head}: skipped, ${inert(r.error ?? '')}`;
  return `${c.red('✗')} ${head}: ${inert(r.error ?? '')}`;
}

export function renderApplySummary(results: ChangeResult[], c: Colors): string {
  const done = results.filter((r) => r.outcome === 'done');
  const count = (a: string) => done.filter((r) => r.change.action === a).length;
  const failed = results.filter((r) => r.outcome === 'failed').length;
  const skipped = results.filter((r) => r.outcome === 'skipped').length;
  const inconsistent = inconsistentResults(results).length;
  const replaced = count('replace') ? `, ${count('replace')} replaced` : '';
  const bad = failed || skipped || inconsistent;
  const line = `Apply ${bad ? 'incomplete' : 'complete'}! ${count('create')} created, ${count('update')} updated, ${count('delete')} deleted, ${count('rename')} renamed${replaced}` +
    (failed || skipped ? `, ${failed} failed, ${skipped} skipped` : '') +
    (inconsistent ? `, ${inconsistent} inconsistent` : '') +
    '.';
  return bad ? c.red(c.bold(line)) : c.green(c.bold(line));
}

/** The changes sent whose answer held other values than sent (ChangeResult.notTaken). */
export function inconsistentResults(results: ChangeResult[]): ChangeResult[] {
  return results.filter((r) => r.outcome === 'done' && r.notTaken?.length);
}
