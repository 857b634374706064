// The Actions secrets and variables domain (src/sandbox/domains/actions-settings): the state file keeps a
// secret's value sealed and gives it back after a restart; the seed refuses what the routes would refuse.
// What each release does is tested in test/conformance/actions-settings.test.ts.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { actionsSettingsDomain } from '../../src/sandbox/domains/actions-settings/index.js';
import { buildState, type SeedFile } from '../../src/sandbox/index.js';
import { boot, type Harness } from './helpers.js';

const SEED: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'], secrets: { ORG_TOKEN: 'seeded-org-value-Gf41' } }],
  repos: [{ name: 'acme/app', variables: { mode: { value: 'a\r\nb', description: 'seeded' } } }],
};

let h: Harness | undefined;
afterEach(async () => h?.sb.close());

describe('state file', () => {
  it("keeps secrets sealed and variables as they are across a restart; a deleted repository's go with it", async () => {
    const statePath = join(mkdtempSync(join(tmpdir(), 'ff-actions-settings-')), 'state.json');
    h = await boot(SEED, { statePath });
    expect((await h.call('PUT', 'repos/acme/app/actions/secrets/DEPLOY', { body: { data: 'put-value-Ks20' } })).status).toBe(201);
    expect((await h.call('POST', 'orgs/acme/actions/variables/REGION', { body: { value: 'eu' } })).status).toBe(201);
    await h.sb.close();
    const file = readFileSync(statePath, 'utf8');
    expect(file).not.toContain('put-value-Ks20');
    expect(file).not.toContain('seeded-org-value-Gf41');
    h = await boot(undefined, { statePath });
    expect((await h.call<{ name: string }[]>('GET', 'repos/acme/app/actions/secrets')).json.map((s) => s.name)).toEqual(['DEPLOY']);
    // The seeded name is stored upper-cased, its CRLF as LF.
    expect((await h.call<{ name: string; data: string; description: string }>('GET', 'repos/acme/app/actions/variables/MODE')).json).toMatchObject({ name: 'MODE', data: 'a\nb', description: 'seeded' });
    expect((await h.call<{ data: string }>('GET', 'orgs/acme/actions/variables/REGION')).json.data).toBe('eu');
    expect(h.sb.state.data.actionSecrets.map((s) => s.data).sort()).toEqual(['put-value-Ks20', 'seeded-org-value-Gf41']);
    // Deleting a repository (its cascade, as services/repository DeleteRepository runs it) drops its own.
    actionsSettingsDomain.cascade?.repo?.(h.sb.state, h.sb.state.data.actionSecrets.find((s) => s.name === 'DEPLOY')!.repoId);
    expect(h.sb.state.data.actionSecrets.map((s) => s.name)).toEqual(['ORG_TOKEN']);
    expect(h.sb.state.data.actionVariables.map((v) => v.name)).toEqual(['REGION']);
  });
});

describe('seed', () => {
  it('refuses an invalid name and an unknown key with the key path', () => {
    expect(() => buildState({ ...SEED, orgs: [{ name: 'acme', owners: ['root'], secrets: { '1BAD': 'x' } }] })).toThrow(/orgs\[0\]\.secrets\.1BAD: not a valid secret or variable name/);
    expect(() => buildState({ ...SEED, orgs: [{ name: 'acme', owners: ['root'], variables: { OK: { value: 'x', colour: 'red' } } }] } as unknown as SeedFile)).toThrow(/colour: unknown key/);
  });
});
