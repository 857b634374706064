/**
 * The sandbox as each release (issue 9): `/version`, routes a release lacks (404), fields it does
 * not know (ignored, logged as unknown), answer fields it does not send, and its quirks. Every
 * expectation is the release's own behaviour as NOTES.md ("Flavours") cites it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildState, parseFlavour, SeedError, startSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { runSandboxCommand, SandboxCommandError } from '../../src/sandbox/cli.js';
import { ADMIN_TOKEN, boot, SEED, type Harness } from './helpers.js';

let h: Harness | undefined;
let raw: Sandbox | undefined;
afterEach(async () => {
  await h?.sb.close();
  await raw?.close();
  h = raw = undefined;
});

const on = async (flavour: string): Promise<Harness> => (h = await boot(SEED, { flavour }));

/** What the last request was logged with. */
const lastUnknown = (hh: Harness): string[] => hh.sb.requests().at(-1)!.unknownFields;

describe('flavour versions', () => {
  const VERSIONS: [string, string][] = [
    ['gitea@1.21', '1.21.11'],
    ['gitea@1.22', '1.22.6'],
    ['gitea@1.23', '1.23.8'],
    ['gitea@1.24', '1.24.7'],
    ['gitea@1.25', '1.25.4'],
    ['gitea@1.26', '1.26.0'],
    ['forgejo@7', '7.0.16+gitea-1.21.11'],
    ['forgejo@11', '11.0.15+gitea-1.22.0'],
    ['forgejo@15', '15.0.3+gitea-1.22.0'],
  ];
  it.each(VERSIONS)('%s answers /version as that release, and the Forgejo route only on Forgejo', async (flavour, version) => {
    const hh = await on(flavour);
    const res = await hh.call<{ version: string }>('GET', 'version', { token: null });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ version });
    const forgejo = await fetch(`${hh.url}/api/forgejo/v1/version`);
    if (flavour.startsWith('forgejo')) {
      expect(forgejo.status).toBe(200);
      expect(await forgejo.json()).toEqual({ version });
    } else {
      expect(forgejo.status).toBe(404);
    }
  });

  it('the default is the newest Gitea release; gitea@main (with what no release has yet) is asked for by name', async () => {
    raw = await startSandbox({ token: ADMIN_TOKEN, seed: SEED });
    expect(raw.flavour.name).toBe('gitea@1.26');
    expect(await (await fetch(`${raw.url}/api/v1/version`)).json()).toEqual({ version: '1.26.0' });
    await raw.close();
    h = await boot(SEED);
    expect(h.sb.flavour.name).toBe('gitea@main');
    expect((await h.call('GET', 'version')).json).toEqual({ version: '1.27.0+forgeform-sandbox' });
  });

  it('the seed may set flavour:, startSandbox({ flavour }) wins over it, a bad one is a seed error naming the key', async () => {
    raw = await startSandbox({ token: ADMIN_TOKEN, seed: { ...SEED, flavour: 'forgejo@11' } });
    expect(raw.flavour.name).toBe('forgejo@11');
    await raw.close();
    raw = await startSandbox({ token: ADMIN_TOKEN, seed: { ...SEED, flavour: 'forgejo@11' }, flavour: 'gitea@1.22' });
    expect(raw.flavour.name).toBe('gitea@1.22');
    expect(() => buildState({ ...SEED, flavour: 'gitea@1.9' })).toThrow(SeedError);
    expect(() => buildState({ ...SEED, flavour: 'gitea@1.9' })).toThrow(/^flavour: unknown flavour "gitea@1.9": the sandbox plays gitea@1.21, /);
  });

  it('the seed key flavor:, its first spelling, still works; both keys at once are refused', async () => {
    raw = await startSandbox({ token: ADMIN_TOKEN, seed: { ...SEED, flavor: 'forgejo@11' } });
    expect(raw.flavour.name).toBe('forgejo@11');
    expect(() => buildState({ ...SEED, flavor: 'gitea@1.9' })).toThrow(/^flavor: unknown flavour "gitea@1.9": the sandbox plays gitea@1.21, /);
    expect(() => buildState({ ...SEED, flavor: 'gitea@1.25', flavour: 'gitea@1.25' })).toThrow(/^flavor: give the release once, as flavour:/);
  });

  it('a patch release names its line; an unknown fork is refused with the list', () => {
    expect(parseFlavour('gitea@1.25.4').name).toBe('gitea@1.25');
    expect(parseFlavour('Forgejo@11.0.2').name).toBe('forgejo@11');
    expect(() => parseFlavour('gogs@1')).toThrow(/expected FORK@RELEASE, one of gitea@1.21, .*forgejo@15/);
  });
});

describe('fields a release does not know are ignored and logged as unknown', () => {
  const PROTECTION = { rule_name: 'main', priority: 5, block_admin_merge_override: true, enable_push: true, enable_force_push: true, apply_to_admins: true };

  it('gitea@1.25 binds priority, force push and block_admin_merge_override; apply_to_admins is Forgejo’s', async () => {
    const hh = await on('gitea@1.25');
    const res = await hh.call<Record<string, unknown>>('POST', 'repos/acme/widgets/branch_protections', { body: PROTECTION });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ priority: 5, block_admin_merge_override: true, enable_force_push: true });
    expect(res.json).not.toHaveProperty('apply_to_admins');
    expect(lastUnknown(hh)).toEqual(['apply_to_admins']);
  });

  it('forgejo@11 ignores priority, force push and block_admin_merge_override, and keeps apply_to_admins', async () => {
    const hh = await on('forgejo@11');
    const res = await hh.call<Record<string, unknown>>('POST', 'repos/acme/widgets/branch_protections', { body: PROTECTION });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ rule_name: 'main', enable_push: true, apply_to_admins: true });
    for (const key of ['priority', 'block_admin_merge_override', 'enable_force_push']) expect(res.json).not.toHaveProperty(key);
    expect(lastUnknown(hh)).toEqual(['priority', 'block_admin_merge_override', 'enable_force_push']);
    const again = await hh.call<Record<string, unknown>[]>('GET', 'repos/acme/widgets/branch_protections');
    expect(again.json[0]).toMatchObject({ apply_to_admins: true });
  });

  it('ignore_stale_approvals needs gitea@1.22: gitea@1.21 ignores it', async () => {
    for (const [flavour, kept] of [['gitea@1.21', false], ['gitea@1.22', true]] as const) {
      const hh = await on(flavour);
      const res = await hh.call<Record<string, unknown>>('POST', 'repos/acme/widgets/branch_protections', { body: { rule_name: 'main', ignore_stale_approvals: true } });
      expect(res.status).toBe(201);
      if (kept) expect(res.json.ignore_stale_approvals).toBe(true);
      else expect(res.json).not.toHaveProperty('ignore_stale_approvals');
      expect(lastUnknown(hh)).toEqual(kept ? [] : ['ignore_stale_approvals']);
      await hh.sb.close();
    }
  });

  it('content_version: gitea@1.25 ignores a stale one (no 409, no version in the answer); gitea@1.26 refuses it', async () => {
    const old = await on('gitea@1.25');
    const res = await old.call<Record<string, unknown>>('PATCH', 'repos/acme/widgets/issues/1', { body: { body: 'new body', content_version: 99 } });
    expect(res.status).toBe(201);
    expect(res.json.body).toBe('new body');
    expect(res.json).not.toHaveProperty('content_version');
    expect(lastUnknown(old)).toEqual(['content_version']);
    await old.sb.close();

    const current = await on('gitea@1.26');
    const refused = await current.call('PATCH', 'repos/acme/widgets/issues/1', { body: { body: 'new body', content_version: 99 } });
    expect(refused.status).toBe(409);
    expect((await current.call<{ body: string; content_version: number }>('GET', 'repos/acme/widgets/issues/1')).json).toMatchObject({ body: 'one', content_version: 0 });
  });
});

describe('routes a release does not have are 404', () => {
  it('badges: gitea@1.22 and newer; gitea@1.21 and Forgejo answer 404', async () => {
    for (const [flavour, status] of [['gitea@1.21', 404], ['forgejo@15', 404], ['gitea@1.22', 200]] as const) {
      const hh = await on(flavour);
      expect((await hh.call('GET', 'admin/users/alice/badges')).status).toBe(status);
      await hh.sb.close();
    }
  });

  // Before 1.23 the path falls to `/branch_protections/*` (GET, PATCH, DELETE): a known path, another method.
  it('branch protection priorities: gitea@1.23 and newer; before, the rule route answers 405', async () => {
    for (const [flavour, status] of [['gitea@1.22', 405], ['forgejo@11', 405], ['gitea@1.23', 204]] as const) {
      const hh = await on(flavour);
      expect((await hh.call('POST', 'repos/acme/widgets/branch_protections/priority', { body: { ids: [] } })).status).toBe(status);
      await hh.sb.close();
    }
  });
});

describe('PATCH /orgs/{org} on releases with plain strings', () => {
  const FILLED = { full_name: 'Acme Inc', description: 'We make things', website: 'https://acme.example', location: 'Berlin' };

  it('gitea@1.25 and forgejo@11 clear the text fields a PATCH omits; gitea@1.26 and the default keep them', async () => {
    for (const [flavour, clears] of [['gitea@1.25', true], ['forgejo@11', true], ['gitea@1.26', false], ['gitea@main', false]] as const) {
      const hh = await on(flavour);
      expect((await hh.call('PATCH', 'orgs/acme', { body: FILLED })).status).toBe(200);
      const res = await hh.call<Record<string, string>>('PATCH', 'orgs/acme', { body: { description: 'Only this changes' } });
      expect(res.status).toBe(200);
      const expected = clears ? { full_name: '', description: 'Only this changes', website: '', location: '' } : { ...FILLED, description: 'Only this changes' };
      expect(res.json).toMatchObject(expected);
      expect((await hh.call('GET', 'orgs/acme')).json).toMatchObject(expected);
      await hh.sb.close();
    }
  });

  it('forgejo@11 cannot make an organisation public; gitea@1.25 can', async () => {
    for (const [flavour, after] of [['forgejo@11', 'private'], ['gitea@1.25', 'public']] as const) {
      const hh = await on(flavour);
      await hh.call('PATCH', 'orgs/acme', { body: { visibility: 'private' } });
      const res = await hh.call<{ visibility: string }>('PATCH', 'orgs/acme', { body: { visibility: 'public' } });
      expect(res.json.visibility).toBe(after);
      await hh.sb.close();
    }
  });
});

describe('admin hooks', () => {
  const HOOK = { type: 'gitea', config: { url: 'https://example.com/hook', content_type: 'json' }, authorization_header: 'Bearer abc' };

  it('every released Gitea and Forgejo return authorization_header in clear; the default hides it', async () => {
    for (const [flavour, header] of [['gitea@1.26', 'Bearer abc'], ['forgejo@7', 'Bearer abc'], ['gitea@main', '']] as const) {
      const hh = await on(flavour);
      const created = await hh.call<{ id: number; authorization_header: string }>('POST', 'admin/hooks', { body: HOOK });
      expect(created.json.authorization_header).toBe(header);
      expect((await hh.call<{ authorization_header: string }>('GET', `admin/hooks/${created.json.id}`)).json.authorization_header).toBe(header);
      await hh.sb.close();
    }
  });

  it('the list honours type= from gitea@1.24; before, it is the system hooks whatever type says', async () => {
    for (const [flavour, listed] of [['gitea@1.23', ['system']], ['forgejo@15', ['system']], ['gitea@1.24', ['default']]] as const) {
      const hh = await on(flavour);
      await hh.call('POST', 'admin/hooks', { body: { ...HOOK, config: { ...HOOK.config, url: 'https://example.com/system', is_system_webhook: 'true' } } });
      await hh.call('POST', 'admin/hooks', { body: { ...HOOK, config: { ...HOOK.config, url: 'https://example.com/default' } } });
      const res = await hh.call<{ config: { url: string } }[]>('GET', 'admin/hooks?type=default');
      expect(res.json.map((x) => x.config.url.replace('https://example.com/', ''))).toEqual(listed);
      await hh.sb.close();
    }
  });

  it('hook name is a gitea@1.26 field: gitea@1.25 ignores it and answers no name', async () => {
    const hh = await on('gitea@1.25');
    const res = await hh.call<Record<string, unknown>>('POST', 'admin/hooks', { body: { ...HOOK, name: 'ci' } });
    expect(res.status).toBe(201);
    expect(res.json).not.toHaveProperty('name');
    expect(lastUnknown(hh)).toEqual(['name']);
  });
});

describe('admin runner list', () => {
  const RUNNERS_SEED = { ...SEED, actions: { runners: [{ name: 'one', labels: ['linux'] }, { name: 'two', labels: ['linux'] }] } };

  it('gitea@1.24: {runners, total_count}; forgejo@15: a bare array with X-Total-Count; gitea@1.23 and forgejo@11: 404', async () => {
    const gitea = (h = await boot(RUNNERS_SEED, { flavour: 'gitea@1.24' }));
    const g = await gitea.call<{ runners: { name: string }[]; total_count: number }>('GET', 'admin/actions/runners');
    expect(g.json.total_count).toBe(2);
    expect(g.json.runners.map((r) => r.name).sort()).toEqual(['one', 'two']);
    await gitea.sb.close();

    const forgejo = (h = await boot(RUNNERS_SEED, { flavour: 'forgejo@15' }));
    const f = await forgejo.call<{ name: string }[]>('GET', 'admin/actions/runners');
    expect(Array.isArray(f.json)).toBe(true);
    expect(f.json.map((r) => r.name).sort()).toEqual(['one', 'two']);
    expect(f.headers.get('x-total-count')).toBe('2');
    await forgejo.sb.close();

    for (const flavour of ['gitea@1.23', 'forgejo@11']) {
      const hh = (h = await boot(RUNNERS_SEED, { flavour }));
      expect((await hh.call('GET', 'admin/actions/runners')).status).toBe(404);
      await hh.sb.close();
    }
  });
});

describe('forgeform sandbox --flavour', () => {
  it('serves the release asked for; an unknown one is refused before listening', async () => {
    let out = '';
    const ctl = new AbortController();
    const done = runSandboxCommand({ port: 0, token: 'cli-token', flavour: 'forgejo@15' }, { stdout: { write: (s: string) => (out += s) }, signal: ctl.signal });
    for (let i = 0; i < 100 && !out; i++) await new Promise((r) => setTimeout(r, 10));
    const url = /listening on (\S+) /.exec(out)![1]!;
    expect(await (await fetch(`${url}/api/v1/version`)).json()).toEqual({ version: '15.0.3+gitea-1.22.0' });
    ctl.abort();
    await done;
    await expect(runSandboxCommand({ flavour: 'gitea@2.0' })).rejects.toThrow(/^--flavour: unknown flavour "gitea@2.0": the sandbox plays gitea@1.21, /);
    await expect(runSandboxCommand({ flavour: 'gitea@2.0' })).rejects.toBeInstanceOf(SandboxCommandError);
  });
});

describe('federation: /nodeinfo', () => {
  it('off (the default): 404 as before; on: the release’s nodeinfo and the well-known link', async () => {
    const off = await on('gitea@1.25');
    expect((await off.call('GET', 'nodeinfo')).status).toBe(404);
    expect((await fetch(`${off.url}/.well-known/nodeinfo`)).status).toBe(404);
    await off.sb.close();

    for (const [flavour, name, version] of [['gitea@1.25', 'gitea', '1.25.4'], ['forgejo@11', 'forgejo', '11.0.15+gitea-1.22.0']] as const) {
      const hh = (h = await boot(SEED, { flavour, federation: true }));
      const res = await hh.call<Record<string, unknown>>('GET', 'nodeinfo', { token: null });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({ version: '2.1', software: { name, version }, protocols: ['activitypub'], services: { inbound: [], outbound: ['rss2.0'] }, metadata: {} });
      expect(res.json.usage).toMatchObject({ users: { total: 7 }, localPosts: 2 });
      const links = await fetch(`${hh.url}/.well-known/nodeinfo`);
      expect(await links.json()).toEqual({ links: [{ href: `${hh.url}/api/v1/nodeinfo`, rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1' }] });
      await hh.sb.close();
    }
  });

  it('the seed may turn it on; releases without a verified nodeinfo (gitea@1.26, gitea@main) keep the 404', async () => {
    raw = await startSandbox({ token: ADMIN_TOKEN, seed: { ...SEED, flavour: 'forgejo@7', federation: true } });
    expect((await fetch(`${raw.url}/api/v1/nodeinfo`)).status).toBe(200);
    const main = (h = await boot(SEED, { federation: true }));
    expect((await main.call('GET', 'nodeinfo')).status).toBe(404);
  });
});
