import { existsSync, readFileSync } from 'node:fs';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildActionDir } from './runner.js';
import { actionWorld, ADMIN_TOKEN, BOT_TOKEN, CONFIG, HOOK_SECRET, PR, writesTo, type ActionWorld } from './world.js';

let actionDir: string;
let w: ActionWorld;
beforeAll(() => {
  actionDir = buildActionDir();
});
afterEach(async () => w?.close());

interface Comment {
  id: number;
  body: string;
}

const comments = async (w: ActionWorld) => (await w.api<Comment[]>(w.forge, 'GET', `repos/ci-bot/config/issues/${PR}/comments`)).body;

describe('the action on a pull request: command plan', () => {
  it('writes the outputs and the step summary, saves the plan, and changes nothing', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', CONFIG);
    const r = await w.run({ 'plan-file': 'out/plan.json' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.outputs).toEqual({
      'has-changes': 'true',
      unsafe: 'false',
      summary: 'Plan: 3 to create, 0 to update, 0 to delete, 0 to rename.',
      'plan-file': `${w.workspace}/out/plan.json`,
      'exit-code': '2',
    });
    expect(JSON.parse(readFileSync(`${w.workspace}/out/plan.json`, 'utf8'))).toMatchObject({ format_version: 1, summary: { create: 3 } });
    expect(r.summary).toContain('### forgeform plan');
    expect(r.summary).toContain('+ label "bug"');
    expect(r.summary).toContain('Planned commit `aaaaaaaaaaaa`');
    expect(r.stdout).toContain('+ label "docs"'); // the text plan in the log
    expect(writesTo(w.managed)).toEqual([]);
    expect(writesTo(w.forge)).toEqual([]); // comment: false
  });

  it('keeps one sticky comment: created on the first run, edited in place on the second', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', CONFIG);
    const first = await w.run({ comment: 'true' }, { sha: '1111111111111111111111111111111111111111' });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const after1 = await comments(w);
    expect(after1).toHaveLength(1);
    expect(after1[0]!.body).toMatch(/^<!-- forgeform:plan /);
    expect(after1[0]!.body).toContain('Planned commit `111111111111`');
    expect(after1[0]!.body).toContain('Plan: 3 to create');

    // The reviewer's change lands on the managed server meanwhile; the PR gets a new commit.
    await w.api(w.managed, 'POST', 'repos/acme/widgets/labels', { name: 'docs', color: '0075ca' });
    const second = await w.run({ comment: 'true' }, { sha: '2222222222222222222222222222222222222222' });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const after2 = await comments(w);
    expect(after2).toHaveLength(1);
    expect(after2[0]!.id).toBe(after1[0]!.id);
    expect(after2[0]!.body).toContain('Planned commit `222222222222`');
    expect(after2[0]!.body).toContain('Plan: 2 to create');
    expect(writesTo(w.forge)).toEqual(['POST repos/ci-bot/config/issues/1/comments', `PATCH repos/ci-bot/config/issues/comments/${after1[0]!.id}`]);
    // the comment was written with the workflow's token, by the bot
    expect(w.forge.requests().filter((q) => q.method !== 'GET').every((q) => q.status >= 200 && q.status < 300)).toBe(true);
  });

  it('puts an unsafe plan at the top of the comment with its reasons, and fails the step (exit-code 3)', async () => {
    w = await actionWorld(actionDir);
    await w.api(w.managed, 'POST', 'repos/acme/widgets/labels', { name: 'stale', color: '000000' });
    await w.api(w.managed, 'POST', 'repos/acme/widgets/labels', { name: 'wontfix', color: 'ffffff' });
    w.write('forgeform.yaml', `version: 1\npolicy:\n  prune: [labels]\n  max_deletes: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n`);
    const r = await w.run({ comment: 'true' });
    expect(r.code).toBe(1);
    expect(r.outputs).toMatchObject({ unsafe: 'true', 'exit-code': '3', 'has-changes': 'true' });
    expect(r.stdout).toMatch(/::error::The plan is unsafe: .*2 deletions/);
    const [c] = await comments(w);
    // After the hidden lines and the heading: the caution, before the plan.
    const visible = c!.body.split('\n').filter((l) => !l.startsWith('<!-- ')).join('\n');
    expect(visible).toMatch(/^### forgeform plan · `forgeform.yaml`\n\n> \[!CAUTION\]\n> \*\*This plan is unsafe/);
    const afterMarker = visible;
    expect(afterMarker).toMatch(/^> - .*2 deletions/m);
    expect(writesTo(w.managed)).toEqual(['POST repos/acme/widgets/labels', 'POST repos/acme/widgets/labels']); // only the test's own
  });

  it('never prints the tokens or the secrets the config reads: they are masked before anything else', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', CONFIG);
    const r = await w.run({ comment: 'true', format: 'json', 'plan-file': 'plan.json' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const lines = (r.stdout + r.stderr).split('\n');
    const masks = lines.filter((l) => l.startsWith('::add-mask::'));
    expect(masks).toEqual(expect.arrayContaining([`::add-mask::${ADMIN_TOKEN}`, `::add-mask::${BOT_TOKEN}`, `::add-mask::${HOOK_SECRET}`]));
    // Every mask comes before the first other line.
    const firstOther = lines.findIndex((l) => l && !l.startsWith('::add-mask::'));
    expect(lines.findLastIndex((l) => l.startsWith('::add-mask::'))).toBeLessThan(firstOther);
    const everythingElse = [
      lines.filter((l) => !l.startsWith('::add-mask::')).join('\n'),
      r.summary,
      JSON.stringify(r.outputs),
      readFileSync(`${w.workspace}/plan.json`, 'utf8'),
      JSON.stringify(await comments(w)),
    ].join('\n');
    for (const secret of [ADMIN_TOKEN, BOT_TOKEN, HOOK_SECRET]) expect(everythingElse).not.toContain(secret);
    expect(r.stdout).toContain('"secret"'); // the json plan is in the log, with the secret shown as sensitive
  });

  it('masks every value the config reads from the environment, for a field that is not secret too (issue 28; issue 17 §4 masked by type)', async () => {
    w = await actionWorld(actionDir);
    const DESCRIPTION = 'Tracked by the platform team';
    w.write('forgeform.yaml', CONFIG.replace('description: "Something is not working"', 'description: "${LABEL_DESCRIPTION}"'));
    const r = await w.run({ comment: 'true', 'plan-file': 'plan.json' }, { env: { LABEL_DESCRIPTION: DESCRIPTION } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const masks = (r.stdout + r.stderr).split('\n').filter((l) => l.startsWith('::add-mask::'));
    expect(masks).toContain(`::add-mask::${HOOK_SECRET}`);
    expect(masks).toContain(`::add-mask::${DESCRIPTION}`);
    expect(JSON.stringify(await comments(w))).not.toContain(DESCRIPTION);
    expect(r.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n') + r.stderr + r.summary).not.toContain(DESCRIPTION);
    expect(JSON.stringify(await comments(w))).not.toContain(HOOK_SECRET);
  });

  it('turns a broken config into annotations with file, line and column, and sends nothing', async () => {
    w = await actionWorld(actionDir);
    w.write('infra/forgeform.yaml', 'version: 1\nusers:\n  alice:\n    emial: a@example.com\n    admin: maybe\n');
    const r = await w.run({ 'working-directory': 'infra', comment: 'true' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error title=forgeform configuration,file=infra/forgeform.yaml,line=4,col=5::unknown key "emial" in users.alice');
    expect(r.stdout).toContain('::error title=forgeform configuration,file=infra/forgeform.yaml,line=5,col=12::users.alice.admin must be boolean');
    expect(r.summary).toContain('infra/forgeform.yaml:4:5: unknown key "emial" in users.alice');
    expect(r.outputs['exit-code']).toBe('1');
    expect(w.managed.requests()).toEqual([]);
    // The comment says the plan failed (an older plan must not stay on the pull request as if current).
    expect(writesTo(w.forge)).toEqual([`POST repos/ci-bot/config/issues/${PR}/comments`]);
    const [c] = await comments(w);
    expect(c!.body).toContain('failed: nothing from this pull request can be applied until a plan succeeds');
    expect(c!.body).toContain('infra/forgeform.yaml:4:5: unknown key "emial" in users.alice');
    expect(c!.body).not.toContain('forgeform:reviewed');
    expect(r.stdout + r.stderr).not.toMatch(/at .*\.js:\d+/); // no stack trace
  });

  it('says why it cannot comment when the token may not, naming the status and the permission', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', CONFIG);
    const r = await w.run({ comment: 'true', 'github-token': 'not-a-token-at-all' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/::error::reading the comments of #1: GET repos\/ci-bot\/config\/issues\/1\/comments answered 401/);
    expect(r.outputs['has-changes']).toBe('true'); // the plan itself is done and reported
  });

  it('warns instead of commenting outside a pull request', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', CONFIG);
    const r = await w.run({ comment: 'true' }, { event: { ref: 'refs/heads/main' }, eventName: 'push' });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('::warning::comment: true, but this run is not for a pull request');
    expect(existsSync(r.outputs['plan-file']!)).toBe(true);
  });
});
