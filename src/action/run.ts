import * as core from '@actions/core';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Plan } from '../plan/types.js';
import { htmlText, inert, mdCodeBlock, mdText } from '../render/inert.js';
import { rehearsalHeadline } from '../render/rehearsal.js';
import { ActionFailure, ActionRun, differs, oneLine, PlanFailure, type PlanRun } from './action-run.js';
import { CLI_EXIT } from './cli.js';
import { stickyBody, upsertStickyComment } from './comment.js';
import { runnerContext } from './context.js';
import { keepIssue } from './drift.js';
import { ForgeError, type ForgeComment } from './forge.js';
import { differences, readRecord, recordLine, reviewedRecord, type Reviewed } from './handoff.js';
import { InputError, readInputs, type Command } from './inputs.js';
import { markerComment } from './markdown.js';
import { referencedVariables, Secrets } from './secrets.js';
import { managedServer } from './trust.js';

const readPlanFile = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Plan;

/** The outcome of the apply, kept at the top of the plan comment (replaced by a later run's). */
const STATUS_START = '<!-- forgeform:status -->';
const STATUS_END = '<!-- /forgeform:status -->';

/** The visible part of a sticky comment, without its hidden lines and its old status. */
function visiblePart(body: string): string {
  const lines = body.split('\n');
  let i = 0;
  while (i < lines.length && /^<!-- forgeform:[^/]/.test(lines[i]!) && !lines[i]!.startsWith(STATUS_START)) i++;
  const rest = lines.slice(i).join('\n');
  const end = rest.indexOf(STATUS_END);
  return rest.startsWith(STATUS_START) && end >= 0 ? rest.slice(end + STATUS_END.length).replace(/^\n+/, '') : rest;
}

// ---- plan ----------------------------------------------------------------------------------------

/** `changed-only: true`: the pull request's base commit (in the checkout when fetch-depth reaches it). */
function changedOnlyRef(a: ActionRun): string | undefined {
  const v = a.inputs.changedOnly;
  if (!v) return undefined;
  if (v !== 'true') return v;
  try {
    const event = JSON.parse(readFileSync(process.env.GITHUB_EVENT_PATH ?? '', 'utf8')) as { pull_request?: { base?: { sha?: string } } };
    if (event.pull_request?.base?.sha) return event.pull_request.base.sha;
  } catch {
    /* no event: said below */
  }
  throw new InputError('changed-only: true needs a pull request event (its base commit); give a git ref instead, e.g. changed-only: origin/main');
}

async function planCommand(a: ActionRun): Promise<void> {
  const file = a.inputs.planFile ? resolve(a.cwd, a.inputs.planFile) : a.tempFile('forgeform-plan.json');
  const pr = a.ctx.pullRequest;
  if (a.inputs.comment && pr === undefined) core.warning('comment: true, but this run is not for a pull request (no pull_request in the event): no comment was written');
  const commenting = a.inputs.comment && pr !== undefined;
  const changedOnly = changedOnlyRef(a);
  // Rehearsed on pull requests unless rehearse: false (and elsewhere when rehearse: true).
  const rehearse = a.inputs.rehearse ?? pr !== undefined;
  let p: PlanRun;
  try {
    p = await a.plan(file, { ...(changedOnly ? { changedOnly } : {}), rehearse });
  } catch (e) {
    // The comment must not keep showing an older plan as if it were this commit's.
    if (commenting && e instanceof PlanFailure) {
      const link = await a.runLink();
      const md =
        `${a.heading('plan')}\n\n> [!WARNING]\n> **Planning commit \`${a.ctx.sha.slice(0, 12)}\` failed: nothing from this pull request can be applied until a plan succeeds.**\n\n` +
        `${mdCodeBlock(e.errors.length ? e.errors : [e.message], 'text').join('\n')}\n${link ? `\n<sub>[workflow run](${link})</sub>\n` : ''}`;
      const res = await upsertStickyComment(a.forge('comment: true'), pr, a.marker(), await a.me(), stickyBody(a.marker(), [], a.secrets.redact(md)));
      core.info(`${res.created ? 'Created' : 'Updated'} the plan comment ${res.id} on pull request #${pr}: planning failed.`);
    }
    throw e;
  }
  a.logPlan(p.plan);
  const md = await a.planMarkdown(p.plan);
  await a.summary(md);
  a.planOutputs(p, p.code);
  if (commenting) {
    const record = { ...reviewedRecord(readPlanFile(p.file), a.ctx.sha, a.inputs.shard), ...(changedOnly ? { changedOnly: true } : {}) };
    const res = await upsertStickyComment(a.forge('comment: true'), pr, a.marker(), await a.me(), stickyBody(a.marker(), [recordLine(record)], a.secrets.redact(md)));
    core.info(`${res.created ? 'Created' : 'Updated'} the plan comment ${res.id} on pull request #${pr}.`);
  }
  if (p.code === CLI_EXIT.unsafe) throw new ActionFailure(`The plan is unsafe: ${inert(p.plan.unsafe.join('; '))}. apply will refuse it without force: true.`);
  if (p.code === CLI_EXIT.rehearsalFailed) throw new ActionFailure(`The rehearsal failed: ${p.plan.rehearsal ? inert(rehearsalHeadline(p.plan.rehearsal)) : 'see the plan'}. Applying this plan would do the same on the server.`);
}

// ---- apply ---------------------------------------------------------------------------------------

interface MergedPull {
  number: number;
  head: string;
  mergeCommit: string;
}

/** The pull request this run applies: from a `pull_request: closed` event, or looked up from the pushed merge commit. */
async function mergedPull(a: ActionRun): Promise<MergedPull | undefined> {
  if (a.ctx.merged) return a.ctx.merged;
  if (a.ctx.eventName !== 'push' || !a.ctx.commit) return undefined;
  const pull = await a.forge('command: apply on push').pullOfCommit(a.ctx.commit);
  return pull ? { number: pull.number, head: pull.head?.sha ?? '', mergeCommit: pull.merge_commit_sha ?? a.ctx.commit } : undefined;
}

/** Deletions of every shard's reviewed plan on the pull request, against the one budget of the whole configuration. */
async function shardBudget(a: ActionRun, pr: number, comments: ForgeComment[], authors: string[], now: Plan): Promise<string | undefined> {
  const count = a.inputs.shard.split('/')[1];
  if (!count || a.inputs.force) return undefined;
  const base = a.marker().replace(/ shard=\S+$/, '');
  let total = 0;
  for (let k = 1; k <= Number(count); k++) {
    const hidden = markerComment(`${base} shard=${k}/${count}`);
    const c = comments.find((x) => x.body?.startsWith(hidden) && authors.includes(x.user?.login ?? ''));
    total += (c && readRecord(c.body)?.deletes) || 0;
  }
  const max = now.policy?.max_deletes;
  return typeof max === 'number' && total > max
    ? `the ${count} shards of pull request #${pr} together delete ${total} objects, more than policy.max_deletes (${max}) allows for the whole configuration (force: true overrides)`
    : undefined;
}

/** Why the fresh plan may not be applied as the reviewed one of `pull`; empty when it may. */
function reviewReasons(pull: MergedPull, comment: ForgeComment | undefined, record: Reviewed | undefined, fresh: Plan): string[] {
  if (!record)
    return [comment ? `the last plan of pull request #${pull.number} failed, so no plan was reviewed` : `pull request #${pull.number} has no plan of this workflow (was it planned with comment: true?)`];
  if (pull.head && record.head !== pull.head)
    return [`the plan on pull request #${pull.number} is of commit ${record.head.slice(0, 12)}, but ${pull.head.slice(0, 12)} was merged: commits were added after the last plan`];
  return differences(record, fresh);
}

async function applyCommand(a: ActionRun): Promise<void> {
  const pull = await mergedPull(a);
  if (!pull) {
    if (a.ctx.eventName === 'push')
      throw new ActionFailure(`commit ${a.ctx.commit.slice(0, 12)} is not the merge of a pull request: nothing was reviewed, so nothing was applied. Change the configuration through a pull request.`);
    return applyWithoutPull(a);
  }
  const forge = a.forge('command: apply');
  const authors = await a.me();
  const comments = await forge.listComments(pull.number);
  const comment = comments.find((c) => c.body?.startsWith(markerComment(a.marker())) && authors.includes(c.user?.login ?? ''));
  const record = comment ? readRecord(comment.body) : undefined;
  let now: PlanRun;
  try {
    now = await a.plan(a.tempFile('forgeform-plan-now.json'), (record as { changedOnly?: boolean } | undefined)?.changedOnly ? { changedOnly: 'HEAD^1' } : {});
  } catch (e) {
    if (e instanceof PlanFailure) await notApplied(a, pull, comment, record, [`planning the merged configuration failed:\n\n${mdCodeBlock(e.errors, 'text').join('\n')}`], undefined);
    throw e;
  }
  a.logPlan(now.plan);
  if (!now.plan.changes.length) {
    await a.summary(`${a.heading('apply')}\n\nNothing to apply: the server already matches the merged configuration.\n`);
    a.planOutputs(now, CLI_EXIT.ok);
    await reportOnPull(a, pull, comment, record, `**Nothing to apply after the merge** (commit \`${pull.mergeCommit.slice(0, 12)}\`): the server already matches the merged configuration.`);
    await closeNotApplied(a, pull);
    return;
  }
  const reasons = reviewReasons(pull, comment, record, readPlanFile(now.file));
  const budget = reasons.length ? undefined : await shardBudget(a, pull.number, comments, authors, now.plan);
  if (budget) reasons.push(budget);
  if (reasons.length) {
    await notApplied(a, pull, comment, record, reasons, now);
    throw new ActionFailure(`Pull request #${pull.number} was merged, but its reviewed plan is not what applying would do now, so nothing was applied: ${reasons.join('; ')}.`);
  }
  const run = await applyFile(a, now);
  const done = run.code === CLI_EXIT.ok;
  const last = lastLine(run.stdout);
  await reportOnPull(
    a,
    pull,
    comment,
    record,
    done
      ? `**Applied after the merge** (commit \`${pull.mergeCommit.slice(0, 12)}\`): ${mdText(last)}`
      : `> [!CAUTION]\n> **The apply after the merge failed** (commit \`${pull.mergeCommit.slice(0, 12)}\`, exit ${run.code}): ${mdText(last || lastLine(run.stderr))}\n\n${mdCodeBlock(failedOutput(run), 'text').join('\n')}`,
  );
  if (done) await closeNotApplied(a, pull);
  finishApply(a, now, run);
}

/** `forgeform apply FILE` of the plan just made (which the CLI checks again, object by object). */
async function applyFile(a: ActionRun, now: PlanRun) {
  const run = await a.cli(['apply', now.file, ...a.serverArgs(), '--format', 'text', ...(a.inputs.force ? ['--force'] : [])], true);
  a.relayStderr(run.stderr, false);
  core.startGroup(`forgeform apply: exit ${run.code}`);
  a.info(run.stdout);
  core.endGroup();
  await a.summary(`${await a.planMarkdown(now.plan, 'apply')}\n<details open><summary>${htmlText(lastLine(run.stdout) || `exit ${run.code}`)}</summary>\n\n${mdCodeBlock(run.stdout.trimEnd().split('\n'), 'text').join('\n')}\n\n</details>\n`);
  return run;
}

/**
 * What a failed apply said: its output and then its errors (stderr), the last 30 lines. A refusal
 * before any change (the apply lock's, issue 28) says its reason on stderr alone: the comment showed
 * an empty block. The comment is redacted as a whole (stickyBody).
 */
const failedOutput = (run: { stdout: string; stderr: string }) =>
  [run.stdout.trimEnd(), run.stderr.trimEnd()]
    .filter(Boolean)
    .join('\n')
    .split('\n')
    .slice(-30);
const lastLine = (stdout: string) => stdout.trimEnd().split('\n').at(-1) ?? '';

function finishApply(a: ActionRun, now: PlanRun, run: { code: number; stdout: string }): void {
  const last = lastLine(run.stdout);
  a.outputs({ 'has-changes': String(differs(now.plan)), unsafe: String(now.plan.unsafe.length > 0), summary: now.plan.changes.length ? last : 'No changes.', 'plan-file': now.file, 'exit-code': String(run.code) });
  if (run.code === CLI_EXIT.unsafe) throw new ActionFailure(`Refused an unsafe plan: ${inert(now.plan.unsafe.join('; '))}. Set force: true to apply it anyway.`);
  if (run.code !== CLI_EXIT.ok) throw new ActionFailure(`forgeform apply failed (exit ${run.code}): ${last}`);
}

/** The apply's outcome at the top of the pull request's plan comment (the reviewed plan stays below it). */
async function reportOnPull(a: ActionRun, pull: MergedPull, comment: ForgeComment | undefined, record: Reviewed | undefined, status: string): Promise<void> {
  const link = await a.runLink();
  const block = `${STATUS_START}\n${a.heading('apply')}\n\n${status}${link ? `\n\n<sub>[workflow run](${link})</sub>` : ''}\n${STATUS_END}`;
  const rest = comment ? visiblePart(comment.body) : '';
  const body = stickyBody(a.marker(), record ? [recordLine(record)] : [], a.secrets.redact(`${block}\n\n${rest}`));
  const res = await upsertStickyComment(a.forge('command: apply'), pull.number, a.marker(), await a.me(), body, comment);
  core.info(`${res.created ? 'Wrote' : 'Updated'} the comment ${res.id} of pull request #${pull.number} with the outcome of the apply.`);
}

function notAppliedIssue(a: ActionRun) {
  return { title: a.inputs.notAppliedTitle, marker: `forgeform:not-applied ${a.marker()}`, authors: [] as string[] };
}

/** Nothing applied: why, on the pull request, and in the one "merged but not applied" issue (with the plan as it is now). */
async function notApplied(a: ActionRun, pull: MergedPull, comment: ForgeComment | undefined, record: Reviewed | undefined, reasons: string[], now: PlanRun | undefined): Promise<void> {
  const why = reasons.map((r) => `- ${r}`).join('\n');
  const planNow = now ? await a.planMarkdown(now.plan, 'plan of the merged configuration') : '';
  if (now) {
    await a.summary(`${a.heading('apply')}: refused\n\nNothing was applied, because:\n${why}\n\n${planNow}`);
    a.outputs({ 'has-changes': String(differs(now.plan)), unsafe: String(now.plan.unsafe.length > 0), summary: `Not applied: ${reasons[0]}`, 'plan-file': now.file, 'exit-code': String(CLI_EXIT.error) });
  }
  const issue = notAppliedIssue(a);
  issue.authors = await a.me();
  const outcome = await keepIssue(
    a.forge('command: apply'),
    issue,
    true,
    a.secrets.redact(
      `### forgeform: pull request #${pull.number} was merged but not applied\n\nThe server does not match \`main\` (commit \`${pull.mergeCommit.slice(0, 12)}\`): nothing was applied, because:\n${why}\n\n` +
        `To bring them together, open a pull request (any change, even a comment) and merge it once its plan — which shows what is pending, below as of now — has been reviewed. This issue is closed by the next apply that succeeds.\n\n${planNow}`,
    ),
    '',
  );
  const where = outcome.action === 'none' ? '' : ` See issue #${outcome.issue}.`;
  await reportOnPull(a, pull, comment, record, `> [!WARNING]\n> **Merged but not applied** (commit \`${pull.mergeCommit.slice(0, 12)}\`): nothing was changed on the server, because:\n\n${why}\n\n${where.trim()}`);
}

async function closeNotApplied(a: ActionRun, pull: MergedPull): Promise<void> {
  const issue = notAppliedIssue(a);
  issue.authors = await a.me();
  const outcome = await keepIssue(a.forge('command: apply'), issue, false, '', `Applied with pull request #${pull.number} (commit \`${pull.mergeCommit.slice(0, 12)}\`): the server matches the configuration again.`);
  if (outcome.action === 'closed') core.info(`Closed issue #${outcome.issue}: the server matches the configuration again.`);
}

/** Not a merged pull request (workflow_dispatch, a schedule): a reviewed plan file if given, else plan and apply. */
async function applyWithoutPull(a: ActionRun): Promise<void> {
  const reviewedPath = a.inputs.planFile ? resolve(a.cwd, a.inputs.planFile) : undefined;
  const now = await a.plan(a.tempFile('forgeform-plan-now.json'));
  a.logPlan(now.plan);
  if (reviewedPath) {
    let reasons: string[];
    if (!existsSync(reviewedPath)) reasons = [`there is no reviewed plan at ${reviewedPath}`];
    else {
      try {
        const reviewed = readPlanFile(reviewedPath);
        reasons = differences(reviewedRecord(reviewed, '', ''), readPlanFile(now.file));
      } catch (e) {
        reasons = [`${reviewedPath} cannot be read as a plan: ${(e as Error).message}`];
      }
    }
    if (reasons.length) {
      await a.summary(`${a.heading('apply')}: refused, the reviewed plan is stale\n\nNothing was applied, because:\n${reasons.map((r) => `- ${r}`).join('\n')}\n\nPlanned again now:\n\n${await a.planMarkdown(now.plan)}`);
      a.outputs({ 'has-changes': String(differs(now.plan)), unsafe: String(now.plan.unsafe.length > 0), summary: `Refused a stale plan: ${reasons[0]}`, 'plan-file': now.file, 'exit-code': String(CLI_EXIT.error) });
      throw new ActionFailure(`The reviewed plan is stale, nothing was applied: ${reasons.join('; ')}. Planned again: see the step summary.`);
    }
  }
  if (!now.plan.changes.length) {
    await a.summary(`${a.heading('apply')}\n\nNothing to apply: the server already matches the configuration.\n`);
    a.planOutputs(now, CLI_EXIT.ok);
    return;
  }
  finishApply(a, now, await applyFile(a, now));
}

// ---- drift ---------------------------------------------------------------------------------------

async function driftCommand(a: ActionRun): Promise<void> {
  const forge = a.forge('command: drift');
  const p = await a.plan(a.inputs.planFile ? resolve(a.cwd, a.inputs.planFile) : a.tempFile('forgeform-plan.json'));
  a.logPlan(p.plan);
  const drifted = differs(p.plan);
  const md = await a.planMarkdown(p.plan, 'drift');
  const body = drifted
    ? `### forgeform: the server drifted from the configuration\n\nThe scheduled plan found changes that nobody reviewed. Bring the configuration in line (a pull request), or apply it to undo the drift. This issue is updated by every run while the drift lasts, and closed by the first run that finds none.\n\n${md}`
    : `No drift any more: the server matches the configuration.\n\n${md}`;
  await a.summary(md);
  a.planOutputs(p, p.code);
  const outcome = await keepIssue(forge, { title: a.inputs.driftTitle, marker: 'forgeform:drift', authors: await a.me() }, drifted, a.secrets.redact(body), a.secrets.redact(body));
  if (outcome.action !== 'none') core.info(`Drift issue #${outcome.issue} ${outcome.action}.`);
  if (drifted && a.inputs.failOnDrift) throw new ActionFailure(`The server drifted from the configuration: ${oneLine(p.plan)}${outcome.action !== 'none' ? ` (issue #${outcome.issue})` : ''}.`);
}

const COMMANDS: Record<Command, (a: ActionRun) => Promise<void>> = { plan: planCommand, apply: applyCommand, drift: driftCommand };

export async function runAction(): Promise<void> {
  const secrets = new Secrets();
  let run: ActionRun | undefined;
  try {
    // Mask before anything can print: the tokens, then every value the config reads from the environment.
    for (const name of ['TOKEN', 'PLAN_TOKEN', 'GITHUB_TOKEN']) secrets.add(process.env[`INPUT_${name}`]);
    for (const name of ['FORGEFORM_TOKEN', 'FORGEFORM_PASSWORD']) secrets.add(process.env[name]);
    const inputs = readInputs();
    const ctx = runnerContext();
    const cwd = resolve(ctx.workspace, inputs.workingDirectory);
    if (!existsSync(cwd)) throw new InputError(`working-directory ${inputs.workingDirectory} does not exist`);
    const configs = inputs.config.length ? inputs.config : ['forgeform.yaml'];
    for (const name of referencedVariables(configs, cwd)) secrets.add(process.env[name]);
    run = new ActionRun(inputs, ctx, cwd, secrets, managedServer(inputs.url, process.env, configs, cwd));
    await COMMANDS[inputs.command](run);
  } catch (e) {
    // Every error the action expects says what went wrong in the user's words; a stack trace would help no one.
    if (!(e instanceof ActionFailure || e instanceof ForgeError || e instanceof InputError) && e instanceof Error && e.stack) core.debug(secrets.redact(e.stack));
    core.setFailed(secrets.redact(e instanceof Error ? e.message : String(e)));
  } finally {
    run?.cleanUp();
  }
}
