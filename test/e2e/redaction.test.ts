/**
 * Config sources stay inside the config, and redaction survives encoding (issue 28, class 2), run through the
 * built CLI: a pull request's symbolic link to .git/config is refused unread; a file that is not YAML is not
 * quoted; a server that echoes every credential in every encoded form gets none of them printed.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENCODED_FORMS } from '../support/encoded-forms.js';
import { startMisbehavingProxy, type MisbehavingProxy } from '../support/misbehaving-proxy.js';
import { ADMIN_TOKEN, world, type CliResult, type World } from './helpers.js';

/** What actions/checkout leaves in .git/config: the job token, base64 in a Basic header. */
const JOB_TOKEN = Buffer.from('x-access-token:ghs_JobTokenLeaksIntoPrComment0123').toString('base64');
const GIT_CONFIG = `[core]
\trepositoryformatversion = 0
[remote "origin"]
\turl = https://github.com/acme/infra
[http "https://github.com/"]
\textraheader = AUTHORIZATION: basic ${JOB_TOKEN}
`;

let w: World | undefined;
let proxy: MisbehavingProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await w?.sandbox.close();
  proxy = undefined;
  w = undefined;
});

function expectNoStack(r: CliResult): void {
  expect(r.stderr).not.toMatch(/\n\s+at .*:\d+:\d+\)?\n/);
}

describe('config sources stay inside the config', () => {
  it('refuses a symbolic link that leaves the config directory, unread, in validate and plan', async () => {
    w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }] });
    mkdirSync(join(w.dir, '.git'));
    writeFileSync(join(w.dir, '.git', 'config'), GIT_CONFIG);
    mkdirSync(join(w.dir, 'config', 'parts'), { recursive: true });
    writeFileSync(join(w.dir, 'config', 'a.yaml'), 'version: 1\n');
    writeFileSync(join(w.dir, 'config', 'parts', 'labels.yaml'), 'version: 1\nusers: {}\n');
    // A link inside the directory is followed as before.
    symlinkSync('parts/labels.yaml', join(w.dir, 'config', 'b.yaml'));
    symlinkSync('../.git/config', join(w.dir, 'config', 'zz.yaml'));
    for (const command of ['validate', 'plan']) {
      const r = await w.cli([command, '-c', 'config']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain('config/zz.yaml: a symbolic link that leads outside the config directory config: refused, and not read');
      expect(r.stderr).not.toContain('config/b.yaml');
      expect(`${r.stdout}${r.stderr}`).not.toMatch(/basic|extraheader|JobToken/i);
      expect(`${r.stdout}${r.stderr}`).not.toContain(JOB_TOKEN.slice(0, 12));
      expectNoStack(r);
    }
    // Named as the file itself, the link is refused too.
    const direct = await w.cli(['validate', '-c', 'config/zz.yaml']);
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain('config/zz.yaml: a symbolic link that leads outside its directory: refused, and not read');
    // Without the link, the same directory is a config.
    const fine = await w.cli(['validate', '-c', 'config/a.yaml', '-c', 'config/b.yaml']);
    expect(fine.code, fine.stderr).toBe(0);
  });

  it('never quotes a file that is not YAML: the syntax errors of .git/config give positions only', async () => {
    w = await world(undefined);
    writeFileSync(join(w.dir, 'gitconfig.yaml'), GIT_CONFIG);
    const r = await w.cli(['validate', '-c', 'gitconfig.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^gitconfig\.yaml:\d+:\d+: YAML syntax error: /m);
    expect(r.stderr).not.toMatch(/basic|JobToken|github\.com/i);
    expect(r.stderr).not.toContain(JOB_TOKEN.slice(0, 12));
  });
});

const PASSWORD = 'Pa55 w/ord?#&<grin>+"q"-Zq81';
const HOOK_SECRET = 'whsec_9f8e7d6c5b4a3f2e1d0c';
const HOOK_AUTH = 'Bearer eyJhbGciOi.JIUzI1NiJ9-x_y';
const SECRETS: Record<string, string> = { 'user password': PASSWORD, 'hook secret': HOOK_SECRET, 'authorization header': HOOK_AUTH, 'the token': ADMIN_TOKEN };

describe('redaction survives encoding', () => {
  it('a server that echoes every secret in every encoded form, and an Authorization line, gets none printed', async () => {
    w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }] });
    const echoes = Object.values(SECRETS).flatMap((v) => Object.values(ENCODED_FORMS).map((encode) => encode(v)));
    const message = `refused: ${echoes.join(' | ')} | Authorization: token ${ADMIN_TOKEN}-other`;
    const sandbox = w.sandbox.url;
    proxy = await startMisbehavingProxy(sandbox, (req) =>
      req.method === 'POST' && (req.path === 'admin/users' || req.path === 'admin/hooks')
        ? { type: 'status', status: 422, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message, url: sandbox }) }
        : undefined,
    );
    const file = w.config(`version: 1
users:
  carol:
    email: carol@example.com
    password: \${PASSWORD}
    must_change_password: false
hooks:
  - url: https://ci.example.com/hook
    secret: \${HOOK_SECRET}
    authorization_header: \${HOOK_AUTH}
`);
    for (const format of ['text', 'json']) {
      const r = await w.cli(['apply', '-c', file, '--yes', '--format', format], { PASSWORD, HOOK_SECRET, HOOK_AUTH, FORGEFORM_URL: proxy.url });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/422 Unprocessable Entity: refused/);
      const out = `${r.stdout}\n${r.stderr}`;
      for (const [kind, value] of Object.entries(SECRETS))
        for (const [form, encode] of Object.entries(ENCODED_FORMS)) expect(out.includes(encode(value)), `${kind}, ${form}, in ${format}`).toBe(false);
      expect(out).not.toContain('-other');
      expectNoStack(r);
    }
  });
});
