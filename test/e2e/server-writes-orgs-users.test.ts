// What forgeform sends to organisations and users on each release (docs/servers-writes.md): the
// releases whose PATCH /orgs clears what it is not sent, cannot clear an e-mail or drop "public", and
// cannot rename a user of an external login source.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { calls, world, type World } from './helpers.js';

interface ApiOrg {
  full_name: string;
  description: string;
  website: string;
  location: string;
  email: string;
  visibility: string;
}

const seed: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
  ],
  orgs: [
    {
      name: 'acme',
      owners: ['root'],
      full_name: 'ACME Corporation',
      description: 'Widgets',
      website: 'https://acme.example.com',
      location: 'Earth',
      email: 'contact@acme.example.com',
      visibility: 'private',
    },
  ],
};

const bodyOf = (w: World, method: string, path: string) => w.sandbox.requests().find((r) => r.method === method && r.path === `/api/v1/${path}`)?.body;

describe.each(['gitea@1.25', 'forgejo@11', 'gitea@main'])('organisation edits on %s', (flavour) => {
  let w: World;
  beforeAll(async () => {
    w = await world(seed, { flavour });
  });
  afterAll(async () => w.sandbox.close());

  it('changing only the description keeps the full name, website and location (the edit carries their current values)', async () => {
    const file = w.config('version: 1\norgs:\n  acme: { description: "Widgets and gadgets" }\n');
    const plan = await w.cli(['plan', '-c', file]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/~ organisation "acme"\n\s+~ description: "Widgets" → "Widgets and gadgets"\n\n/);
    w.sandbox.clearRequests();
    const apply = await w.cli(['apply', '-c', file, '--yes']);
    expect(apply.code).toBe(0);
    expect(bodyOf(w, 'PATCH', 'orgs/acme')).toEqual({ full_name: 'ACME Corporation', description: 'Widgets and gadgets', website: 'https://acme.example.com', location: 'Earth' });
    const org = (await w.api<ApiOrg>('GET', 'orgs/acme')).body;
    expect(org).toMatchObject({ full_name: 'ACME Corporation', description: 'Widgets and gadgets', website: 'https://acme.example.com', location: 'Earth', email: 'contact@acme.example.com' });
    expect((await w.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });
});

describe('organisation e-mail and visibility where the API cannot write them', () => {
  let gitea: World;
  let forgejo: World;
  let newest: World;
  beforeAll(async () => {
    [gitea, forgejo, newest] = await Promise.all([world(seed, { flavour: 'gitea@1.25' }), world(seed, { flavour: 'forgejo@11' }), world(seed, { flavour: 'gitea@main' })]);
  });
  afterAll(async () => Promise.all([gitea.sandbox.close(), forgejo.sandbox.close(), newest.sandbox.close()]));

  it('clearing the e-mail is a plan error on Gitea 1.25 (an empty e-mail leaves it as it is), and done where the server can', async () => {
    const yaml = 'version: 1\norgs:\n  acme:\n    email: ""\n';
    const file = gitea.config(yaml);
    gitea.sandbox.clearRequests();
    const r = await gitea.cli(['apply', '-c', file, '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:4:5: organisation "acme": Gitea 1.25.4 cannot clear an organisation's e-mail through its API`);
    expect(r.stderr).toContain("clear it in the organisation's settings in the web UI, or remove email from the config");
    expect(calls(gitea.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);

    const there = newest.config(yaml);
    expect((await newest.cli(['apply', '-c', there, '--yes'])).code).toBe(0);
    expect((await newest.api<ApiOrg>('GET', 'orgs/acme')).body.email).toBe('');
    expect((await newest.cli(['plan', '-c', there])).stdout).toContain('No changes.');
  });

  it('sets a new e-mail on every release, and an organisation created with one gets it (the create ignores it)', async () => {
    const file = gitea.config('version: 1\norgs:\n  acme: { email: sales@acme.example.com }\n  tools: { owner: alice, full_name: Tools, email: tools@example.com }\n');
    gitea.sandbox.clearRequests();
    expect((await gitea.cli(['apply', '-c', file, '--yes'])).code).toBe(0);
    expect((await gitea.api<ApiOrg>('GET', 'orgs/acme')).body).toMatchObject({ email: 'sales@acme.example.com', full_name: 'ACME Corporation', location: 'Earth' });
    expect((await gitea.api<ApiOrg>('GET', 'orgs/tools')).body).toMatchObject({ email: 'tools@example.com', full_name: 'Tools' });
    expect((await gitea.cli(['plan', '-c', file])).stdout).toContain('No changes.');
  });

  it('making an organisation public is a plan error on Forgejo (its PATCH drops "public"), and done on Gitea', async () => {
    const yaml = 'version: 1\norgs:\n  acme: { visibility: public, location: Mars }\n';
    const file = forgejo.config(yaml);
    forgejo.sandbox.clearRequests();
    const r = await forgejo.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:3:11: organisation "acme": Forgejo 11.0.15 cannot make an organisation public through its API`);
    expect(r.stderr).toContain("change it in the web UI (the organisation's Settings → Visibility)");
    const there = gitea.config(yaml);
    expect((await gitea.cli(['apply', '-c', there, '--yes'])).code).toBe(0);
    expect((await gitea.api<ApiOrg>('GET', 'orgs/acme')).body.visibility).toBe('public');
    expect((await gitea.cli(['plan', '-c', there])).stdout).toContain('No changes.');
  });
});

describe('users the API cannot rename or make public', () => {
  const users: SeedFile = {
    auth_sources: [{ id: 3, name: 'corporate-ldap', type: 'ldap' }],
    users: [
      { username: 'root', admin: true, email: 'root@example.com' },
      { username: 'carol', email: 'carol@example.com', source_id: 3, login_name: 'carol' },
      { username: 'dave', email: 'dave@example.com', visibility: 'limited' },
    ],
  };
  let gitea: World;
  let forgejo: World;
  beforeAll(async () => {
    [gitea, forgejo] = await Promise.all([world(users, { flavour: 'gitea@1.25' }), world(users, { flavour: 'forgejo@11' })]);
  });
  afterAll(async () => Promise.all([gitea.sandbox.close(), forgejo.sandbox.close()]));

  it('renaming a user of an external login source is a plan error naming the user and why, not a 500 at apply', async () => {
    const file = gitea.config('version: 1\nusers:\n  caroline:\n    previously: [carol]\n    full_name: Caroline\n');
    gitea.sandbox.clearRequests();
    const r = await gitea.cli(['apply', '-c', file, '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${file}:4:5: user "caroline": user "carol" signs in through an external login source (source_id 3), and Gitea 1.25.4 cannot rename such a user (the server fails with 500 "user is not local type")`,
    );
    expect(r.stderr).toContain('make it a local user first');
    expect(calls(gitea.sandbox).filter((c) => !c.startsWith('GET'))).toEqual([]);
    // A local user is renamed as before.
    const local = gitea.config('version: 1\nusers:\n  david:\n    previously: [dave]\n');
    expect((await gitea.cli(['apply', '-c', local, '--yes'])).code).toBe(0);
    expect((await gitea.api('GET', 'users/david')).status).toBe(200);
  });

  it('making a user public is a plan error on Forgejo (its PATCH drops "public"), and done on Gitea', async () => {
    const yaml = 'version: 1\nusers:\n  dave: { visibility: public }\n';
    const file = forgejo.config(yaml);
    forgejo.sandbox.clearRequests();
    const r = await forgejo.cli(['plan', '-c', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:3:11: user "dave": Forgejo 11.0.15 cannot make a user public through its API (PATCH /admin/users/{username} drops visibility "public")`);
    expect(r.stderr).toContain('change it in the web UI');
    const other = forgejo.config('version: 1\nusers:\n  dave: { visibility: private }\n');
    expect((await forgejo.cli(['apply', '-c', other, '--yes'])).code).toBe(0);
    expect((await forgejo.cli(['plan', '-c', other])).stdout).toContain('No changes.');
  });
});
