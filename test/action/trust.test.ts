/**
 * What a pull request cannot do to the action's credentials: choose the server the token is sent
 * to (the workflow fixes it), or read the token through the configuration (the CLI gets it in a
 * file, never in a variable). And plan runs with the read-only token when one is given.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loopbackServers } from '../support/loopback.js';
import { buildActionDir } from './runner.js';
import { actionWorld, ADMIN_TOKEN, BOT_TOKEN, writesTo, type ActionWorld } from './world.js';

const listener = loopbackServers();
let actionDir: string;
let w: ActionWorld | undefined;
beforeAll(() => {
  actionDir = buildActionDir();
}, 120_000);
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const LABELS = 'version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701 }\n';

describe('the managed server is fixed by the workflow', () => {
  it('requires the url input or FORGEFORM_URL', async () => {
    w = await actionWorld(actionDir);
    w.write('forgeform.yaml', LABELS);
    const r = await w.run({ url: '' });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error::the input url (or the variable FORGEFORM_URL) is required: the server the token is sent to must be fixed by the workflow');
    expect(w.managed.requests()).toEqual([]);
  });

  it('refuses a configuration whose server.url names another server, and sends the token nowhere', async () => {
    w = await actionWorld(actionDir);
    const seen: string[] = [];
    const other = await listener((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(404).end();
    });
    // The pull request edits the configuration: a server of its own.
    w.write('forgeform.yaml', `version: 1\nserver:\n  url: ${other}\n${LABELS.slice('version: 1\n'.length)}`);
    // The url input, or FORGEFORM_URL.
    for (const byVariable of [false, true]) {
      const r = await w.run({ comment: 'true', ...(byVariable ? { url: '' } : {}) }, { env: byVariable ? { FORGEFORM_URL: w.managed.url } : {} });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`::error::forgeform.yaml sets server.url to ${other}, but this workflow manages ${w.managed.url}: refusing to plan or apply a configuration written for another server`);
    }
    expect(seen).toEqual([]);
    expect(w.managed.requests()).toEqual([]);
  });
});

describe('the configuration cannot read the token', () => {
  it('${FORGEFORM_TOKEN}, ${INPUT_TOKEN} and the job token are not in the environment of forgeform', async () => {
    w = await actionWorld(actionDir);
    for (const name of ['FORGEFORM_TOKEN', 'INPUT_TOKEN', 'INPUT_PLAN_TOKEN', 'GITHUB_TOKEN']) {
      w.write('forgeform.yaml', `version: 1\nrepos:\n  acme/widgets:\n    labels:\n      bug: { color: ee0701, description: "\${${name}}" }\n`);
      // The token given both ways a workflow gives it: the input, and FORGEFORM_TOKEN in env:.
      const r = await w.run({ 'plan-token': ADMIN_TOKEN }, { env: { FORGEFORM_TOKEN: ADMIN_TOKEN, GITHUB_TOKEN: BOT_TOKEN } });
      expect(r.code, name).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`::error title=forgeform configuration,file=forgeform.yaml,line=5,col=\\d+::.*${name}`));
      // The runner consumes ::add-mask:: lines: everything else must not hold a token.
      const shown = [...(r.stdout + r.stderr).split('\n').filter((l) => !l.startsWith('::add-mask::')), r.summary].join('\n');
      for (const secret of [ADMIN_TOKEN, BOT_TOKEN]) expect(shown).not.toContain(secret);
    }
    expect(writesTo(w.managed)).toEqual([]);
  });
});

describe('tokens by purpose', () => {
  it('plans with plan-token (a read-only token), and writes with token', async () => {
    w = await actionWorld(actionDir);
    const root = w.managed.state.userByName('root')!;
    w.managed.state.addToken(root.id, 'read-only-token-8d2e', ['read:repository', 'read:user', 'read:organization', 'read:admin', 'read:issue'], 'plan');
    w.write('forgeform.yaml', LABELS);
    // token is not one the server knows: planning works only if plan-token is what plan used.
    const plan = await w.run({ 'plan-token': 'read-only-token-8d2e', token: 'not-a-token-of-this-server' });
    expect(plan.code, plan.stdout).toBe(0);
    expect(plan.outputs['has-changes']).toBe('true');
    // apply plans with plan-token, and writes with token.
    const apply = await w.run({ command: 'apply', 'plan-token': 'read-only-token-8d2e', token: ADMIN_TOKEN }, { event: {}, eventName: 'workflow_dispatch' });
    expect(apply.code, apply.stdout).toBe(0);
    expect(writesTo(w.managed)).toEqual(['POST repos/acme/widgets/labels']);
  });
});
