import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writes, world, type World } from './helpers.js';

// Issue 17 item 8: references that plan used to accept and apply failed on (422/404, no file:line) are
// plan errors at their place, checked with what the plan reads anyway or one cheap GET.
const seed = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
    { username: 'outsider', email: 'outsider@example.com' },
  ],
  orgs: [{ name: 'acme', owners: ['root'] }],
  repos: [{ name: 'acme/widgets', private: true, collaborators: { alice: 'write' }, issues: [{ title: 'First', author: 'root' }] }],
};

let w: World;
beforeAll(async () => {
  w = await world(seed);
});
afterAll(async () => w?.sandbox.close());

describe('references checked when the plan is made', () => {
  it('names each at file:line:col and changes nothing', async () => {
    const file = w.config(`version: 1
users:
  bob: { email: "not-an-email", password: "\${PW}", must_change_password: false }
  carl: { email: "carl@example.com", password: "\${PW}", must_change_password: false }
  dora: { email: "CARL@example.com", password: "\${PW}", must_change_password: false }
orgs:
  neworg: { owner: ghostowner }
  okorg: { owner: carl }
repos:
  nobody-here/repo: { create: {} }
  carl/own: { create: {} }
  acme/widgets:
    issues:
      1: { title: First, assignees: [alice, nobody, outsider], due_date: 2026-13-45 }
`);
    const r = await w.cli(['plan', '-c', file], { PW: 'a-long-password-123' });
    expect(r.code).toBe(1);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(file));
    expect(lines).toEqual([
      `${file}:3:10: user "bob": email: "not-an-email" is not an e-mail address Gitea accepts (letters, digits and .!#$%&'*+-/=?^_\`{|}~ before the @, a host name after it)`,
      `${file}:5:11: user "dora": email: "CARL@example.com" is also the e-mail of user "carl" in this configuration (Gitea gives one address to one account, compared case-insensitively)`,
      `${file}:7:13: organisation "neworg": owner: user "ghostowner" does not exist on the server, and this configuration does not create it`,
      `${file}:10:23: repository "nobody-here/repo": nobody-here/repo: its owner "nobody-here" is neither a user nor an organisation on the server, and this configuration creates neither`,
      `${file}:14:26: issue "#1" in acme/widgets: assignees: user "nobody" does not exist on the server (Gitea would refuse the edit)`,
      `${file}:14:26: issue "#1" in acme/widgets: assignees: user "outsider" has no access to acme/widgets and cannot be assigned (Gitea would refuse the edit)`,
      `${file}:14:64: issue "#1" in acme/widgets: due_date: "2026-13-45" is not a day of the calendar (YYYY-MM-DD)`,
    ]);
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('refuses a hook URL with user:password@ at its place, never printing the password', async () => {
    const file = w.config('version: 1\nhooks:\n  - { url: "https://user:pa55word@ci.example.com/hook", events: [push] }\n', 'hook-userinfo.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:3:7: url: the URL holds credentials (user:password@), which would be printed and saved with every plan`);
    expect(r.stdout + r.stderr).not.toContain('pa55word');
  });

  it('accepts what exists or the plan creates: a real day, an owner created by the same plan, an assignee who can write', async () => {
    const file = w.config(`version: 1
users:
  erin: { email: "erin@example.com", password: "\${PW}", must_change_password: false }
orgs:
  erinorg: { owner: erin }
repos:
  erin/own: { create: {} }
  erinorg/tools: { create: {} }
  acme/widgets:
    issues:
      1: { title: First, assignees: [alice], due_date: 2028-02-29 }
`);
    const r = await w.cli(['plan', '-c', file], { PW: 'a-long-password-123' });
    expect(r.stderr).not.toContain(file);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Plan: 4 to create, 1 to update');
  });
});

describe('names that look alike', () => {
  it('warns when a declared label and one on the server differ only in Unicode normalisation', async () => {
    const nfd = 'cafe\u0301';
    expect((await w.api('POST', 'repos/acme/widgets/labels', { name: nfd, color: 'ee0701' })).status).toBe(201);
    const file = w.config('version: 1\nrepos:\n  acme/widgets:\n    labels:\n      "caf\u00e9": { color: "00ff00" }\n', 'nfc.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(
      `Warning: labels "caf\u00e9" [composed (NFC), declared] and "${nfd}" [decomposed (NFD), on the server] in acme/widgets differ only in Unicode normalisation: they look the same, but Gitea keeps them as different labels; write the name as the server has it`,
    );
  });
});

describe('overlapping globs', () => {
  it('names both globs when they set one field of a repository differently (the later wins), once', async () => {
    const file = w.config('version: 1\nrepos:\n  "acme/*":\n    labels:\n      bug: { color: "00ff00" }\n  "acme/w*":\n    labels:\n      bug: { color: "0000ff", description: same }\n  "acme/wi*":\n    labels:\n      bug: { description: same }\n', 'globs.yaml');
    const r = await w.cli(['plan', '-c', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.match(/both set/g)).toHaveLength(1);
    expect(r.stdout).toContain('Warning: repos "acme/*" and "acme/w*" both set labels.bug.color (for acme/widgets, and any other repository both match) to different values: the later one, "acme/w*", wins');
  });
});
