/**
 * Diagnosis under faults says what happened (issue 28, item 7): a fault is reported as what it is, and
 * nothing else is blamed along with it. An organisation that cannot be read is that one error, not also a
 * false config error about its secret fields; an answer cut short is read again before a proxy is blamed;
 * one route that stalls is that route's failure, not "the server stopped answering".
 * (A bounded interpolation, the last point of item 7: test/e2e/interpolation-bound.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { firstTimes, type ProxiedRequest } from '../support/misbehaving-proxy.js';
import { proxiedWorlds } from './proxied-world.js';
import { rootAnd, rootAndAcme, widgetsWithLabels } from '../support/seeds.js';
import { writes } from './helpers.js';

const behind = proxiedWorlds();

describe('an organisation that cannot be read', () => {
  const seed = {
    users: rootAnd(),
    orgs: [
      { name: 'acme', owners: ['root'] },
      { name: 'beta', owners: ['root'] },
    ],
    repos: [{ name: 'acme/widgets' }, { name: 'beta/gadgets' }],
  };
  // One deploy key, a secret in three places: each place is a secret field.
  const config = `version: 1
orgs:
  acme:
    description: Acme
    secrets:
      DEPLOY: { value: "\${DEPLOY}" }
  beta:
    secrets:
      DEPLOY: { value: "\${DEPLOY}" }
repos:
  acme/widgets:
    secrets:
      DEPLOY: { value: "\${DEPLOY}" }
  beta/gadgets:
    labels:
      bug: { color: "ee0701" }
`;
  const env = { DEPLOY: 'deploy-key-value-1' };

  it('is that one error: its secret fields are not also called fields that are not secret (plan and apply)', async () => {
    const w = await behind(seed, (r) => (r.method === 'GET' && r.path === 'orgs/acme' ? { type: 'status', status: 500, body: '{"message":"database is locked"}' } : undefined));
    const file = w.config(config);
    for (const args of [['plan'], ['apply', '--yes']]) {
      const r = await w.viaProxy([...args, '-c', file], env);
      expect(r.code, r.stderr).toBe(1);
      const errors = r.stderr.split('\n').filter((l) => l.includes('forgeform.yaml:'));
      expect(errors).toEqual([expect.stringMatching(/forgeform\.yaml:3:3: cannot read organisation acme: GET \/api\/v1\/orgs\/acme → 500 Internal Server Error: database is locked/)]);
      // Before: ":6:24: ${DEPLOY} is read by a secret field (at …:9:24), so this value, which is not secret …" for acme's
      // secret and for acme/widgets' (their kinds were never planned, so their fields were never known as secret).
      expect(r.stderr).not.toContain('is read by a secret field');
      expect(r.stderr).toContain('Planning failed: nothing was changed.');
    }
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('--target that leaves an organisation out does not call its secret fields not secret either', async () => {
    const w = await behind(seed);
    const r = await w.viaProxy(['plan', '-c', w.config(config), '--target', 'org:beta', '--detailed-exitcode'], env);
    expect(r.stderr).not.toContain('is read by a secret field');
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toContain('+ organisation Actions secret "DEPLOY"');
    expect(r.stdout).toContain('value = (sensitive, from ${DEPLOY})');
    expect(r.stdout).not.toContain('acme');
  });

  it('a value that is not secret reading a secret field’s variable is still refused', async () => {
    const w = await behind(seed);
    const r = await w.viaProxy(['plan', '-c', w.config(config.replace('description: Acme', 'description: "${DEPLOY}"'))], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/forgeform\.yaml:4:18: \$\{DEPLOY\} is read by a secret field \(at \S+forgeform\.yaml:6:24\), so this value, which is not secret/);
    expect(r.stderr.match(/is read by a secret field/g)).toHaveLength(1);
    expect(r.stderr).not.toContain('deploy-key-value-1');
  });
});

describe('an answer cut short', () => {
  const { seed, config } = widgetsWithLabels(30);
  const isLabelList = (r: ProxiedRequest) => r.method === 'GET' && r.path === 'repos/acme/widgets/labels';

  it('once (JSON that ends cleanly, in the middle of the list): read again, and the plan is right', async () => {
    const w = await behind(seed, firstTimes(1, isLabelList, { type: 'cut' }));
    const r = await w.viaProxy(['plan', '-c', w.config(config), '--detailed-exitcode']);
    // Before: "answered text that is not JSON ("[{"id":1,…") where a list is due: something other than Gitea
    // answers at this URL (a proxy or a login page?)", exit 1, though the server was Gitea and answered.
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('retrying GET /api/v1/repos/acme/widgets/labels: answered 200 with JSON cut short');
    expect(r.stderr).not.toContain('login page');
    expect(w.proxy.seen.filter((s) => s.path === 'repos/acme/widgets/labels').map((s) => s.did)).toEqual(['cut', 'forwarded']);
  });

  it('every time: an error saying it was cut short, and read twice; nothing planned or written', async () => {
    const w = await behind(seed, (r) => (isLabelList(r) ? { type: 'cut' } : undefined));
    for (const args of [['plan'], ['apply', '--yes']]) {
      const r = await w.viaProxy([...args, '-c', w.config(config)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /labels of acme\/widgets: GET \/api\/v1\/repos\/acme\/widgets\/labels answered JSON cut short \(it ends after \d+ bytes, inside a list\), and again when sent once more: the answer is ended early on its way \(a proxy, or a connection that drops answers\); nothing is planned from it/,
      );
      expect(r.stderr).not.toContain('login page');
      expect(r.stdout).not.toContain('to create');
    }
    // Twice per run: the first answer and its one retry.
    expect(w.proxy.seen.filter((s) => s.path === 'repos/acme/widgets/labels')).toHaveLength(4);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('a login page is still no cut answer: not read again, blamed on what answers at the URL', async () => {
    const w = await behind(seed, (r) => (isLabelList(r) ? { type: 'html' } : undefined));
    const r = await w.viaProxy(['plan', '-c', w.config(config)]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('something other than Gitea answers at this URL (a proxy or a login page?)');
    expect(w.proxy.seen.filter((s) => s.path === 'repos/acme/widgets/labels')).toHaveLength(1);
  });
});

describe('one route that stalls', () => {
  const seed = rootAndAcme({ repos: [{ name: 'acme/widgets', labels: [{ name: 'bug', color: 'ee0701' }] }, { name: 'acme/gadgets' }] });
  const config = `version: 1
repos:
  acme/widgets:
    labels:
      bug: { color: "ee0701" }
  acme/gadgets:
    labels:
      docs: { color: "0000ff" }
`;
  const stallsLabels = (r: ProxiedRequest) => (r.method === 'GET' && r.path === 'repos/acme/widgets/labels' ? ({ type: 'stall' } as const) : undefined);

  it('is that route’s failure, named with the object; the server is not called dead', async () => {
    const w = await behind(seed, stallsLabels);
    const r = await w.viaProxy(['plan', '-c', w.config(config), '--timeout', '2']);
    expect(r.code).toBe(1);
    // Before: "http://127.0.0.1:…: stopped answering: no answer in time to GET /api/v1/repos/acme/widgets/labels (nothing
    // came from the server within 2 s, --timeout), so nothing more is sent; check that it is up" — though it answered.
    expect(r.stderr).not.toContain('stopped answering');
    expect(r.stderr).toContain(
      'labels of acme/widgets: GET /api/v1/repos/acme/widgets/labels got no complete answer within 2 s (--timeout), though the server is answering: this request alone is slow or stalls on the server',
    );
    expect(r.stderr).toContain('(tried 2 times)');
    // Asked once whether the server is alive while the route was silent: it answered.
    expect(w.proxy.seen.some((s) => s.path === 'user' && s.did === 'forwarded')).toBe(true);
  });

  it('apply says the same, and writes nothing', async () => {
    const w = await behind(seed, stallsLabels);
    const r = await w.viaProxy(['apply', '--yes', '-c', w.config(config), '--timeout', '2']);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('stopped answering');
    expect(r.stderr).toContain('this request alone is slow or stalls on the server');
    expect(writes(w.sandbox).filter((c) => !c.includes('forgeform-lock'))).toEqual([]);
  });

  it('a server that answers nothing but /version is still called stopped, in one line', async () => {
    const w = await behind(seed, (r) => (r.path === 'version' ? undefined : { type: 'stall' }));
    const r = await w.viaProxy(['plan', '-c', w.config(config), '--timeout', '2']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${w.proxy.url} stopped answering: no answer in time to GET /api/v1/`);
    expect(r.stderr).not.toContain('this request alone');
  });
});
