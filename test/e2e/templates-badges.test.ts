import { afterEach, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { applies, bodyOf, calls, exportRoundTrip, planExits, world, writes, type World } from './helpers.js';

/**
 * Issue 27: two names the server checks only when apply writes, which the plan now checks first. A readme
 * template no API lists (src/kinds/repo/templates.ts: the release's built-in ones and policy.readme_templates),
 * and a badge slug no API lists (src/kinds/user/badges.ts: the slugs users the plan reads carry, and
 * policy.badges). Before, the plan showed both, and apply failed: the create with 400 "readme template does
 * not exist", the badge write with 500 after the user was created.
 */

/** The line and column of the first occurrence of `text` in a config (1-based), as errors point at it. */
function placeIn(yaml: string, text: string): string {
  const before = yaml.slice(0, yaml.indexOf(text)).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

const people: SeedFile['users'] = [
  { username: 'root', admin: true, email: 'root@example.com' },
  { username: 'alice', email: 'alice@example.com', badges: ['early'] },
];
const seed: SeedFile = { users: people, orgs: [{ name: 'acme', owners: ['root'] }], badges: ['early', 'maintainer'] };

let w: World;
afterEach(async () => w?.sandbox.close());

const repoWith = (readme: string, policy = '') => `version: 1
${policy}repos:
  acme/fresh:
    create:
      auto_init: true
      readme: ${readme}
`;

describe.each(['gitea@1.21', 'gitea@1.25', 'forgejo@11'])('an unknown readme template on %s', (flavour) => {
  it('is refused at its place, naming the built-in templates and policy.readme_templates; nothing is written', async () => {
    w = await world({ ...seed, flavour });
    for (const name of ['Fancy', 'default']) {
      const yaml = repoWith(name);
      const file = w.config(yaml, `${name}.yaml`);
      const plan = await planExits(w, file, 1);
      expect(plan.stderr).toContain(`${file}:${placeIn(yaml, 'readme:')}: repository "acme/fresh": "${name}" is neither a built-in readme template of `);
      expect(plan.stderr).toMatch(/readme template of (Gitea 1\.21|Gitea 1\.25|Forgejo 11)[^(]* \(Default; names are case-sensitive\) nor one policy\.readme_templates lists \(none\): the server would refuse the create \(400 "readme template does not exist"\)/);
      expect(plan.stderr).toContain("add its name to policy.readme_templates");
      expect(plan.stderr).not.toMatch(/at .*\.js:\d+/);
    }
    expect(writes(w.sandbox)).toEqual([]);
  });

  it('"Default", or none with auto_init, is created and converges; no API is asked for readme templates', async () => {
    w = await world({ ...seed, flavour });
    const file = w.config(repoWith('Default'));
    w.sandbox.clearRequests();
    await planExits(w, file, 2);
    expect(calls(w.sandbox).filter((c) => /template|readme/.test(c))).toEqual([]);
    await applies(w, file);
    await planExits(w, file, 0);
  });
});

describe('policy.readme_templates', () => {
  it('declares the server\'s custom templates: a repository with one is created and converges; others are still refused', async () => {
    // The server's custom/options/readme holds Fancy (the sandbox's custom_templates).
    w = await world({ ...seed, custom_templates: { readme: ['Fancy'] } });
    const yaml = repoWith('Fancy', 'policy:\n  readme_templates: [Fancy]\n');
    const declared = w.config(yaml);
    const plan = await planExits(w, declared, 2);
    expect(plan.stdout).toMatch(/\+ readme\s+= "Fancy"/);
    expect(plan.stdout).toContain('readme_templates [Fancy]');
    await applies(w, declared);
    expect(bodyOf(w.sandbox, 'POST', 'admin/users/acme/repos')).toMatchObject({ auto_init: true, readme: 'Fancy' });
    await planExits(w, declared, 0);
    w.sandbox.clearRequests();
    const other = repoWith('Plain', 'policy:\n  readme_templates: [Fancy]\n');
    const file = w.config(other.replace('acme/fresh', 'acme/other'), 'other.yaml');
    const refused = await planExits(w, file, 1);
    expect(refused.stderr).toContain(`${file}:${placeIn(other, 'readme:')}: repository "acme/other": "Plain" is neither a built-in readme template of `);
    expect(refused.stderr).toContain('nor one policy.readme_templates lists (Fancy)');
    expect(writes(w.sandbox)).toEqual([]);
  });
});

const userWith = (badges: string, extra = '', policy = '') => `version: 1
${policy}users:
${extra}  carol:
    email: carol@example.com
    password: \${CAROL_PASSWORD}
    badges: [${badges}]
`;
const CAROL = { CAROL_PASSWORD: 'carol-initial-password-42' };

describe('a badge slug the plan cannot know the server has', () => {
  it('is refused at the slug, saying why (no API lists badges) and how to declare it; nothing is written', async () => {
    w = await world(seed);
    const yaml = userWith('early, maintainer');
    const file = w.config(yaml);
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], CAROL);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    // alice carries "early", but the plan does not read her badges (her config does not name them): neither slug is known.
    expect(plan.stderr).toContain(`${file}:${placeIn(yaml, 'early')}: user "carol": badge "early" is not known: the server has no API that lists its badges`);
    expect(plan.stderr).toContain(`${file}:${placeIn(yaml, 'maintainer')}: user "carol": badge "maintainer" is not known`);
    expect(plan.stderr).toContain('fails the write after the user is written (500). If the server has this badge, declare it: policy: { badges: [maintainer] }');
    expect(writes(w.sandbox)).toEqual([]);
    expect((await w.api<{ login: string }[]>('GET', 'admin/users?limit=50')).body.map((u) => u.login)).not.toContain('carol');
  });

  it('a slug a user the plan reads carries is known: the new user gets it, and the next plan is empty', async () => {
    w = await world(seed);
    const file = w.config(userWith('early', '  alice:\n    badges: [early]\n'));
    const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], CAROL);
    expect(plan.code, plan.stdout + plan.stderr).toBe(2);
    const apply = await w.cli(['apply', '-c', file, '--yes'], CAROL);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect((await w.api<{ Slug: string }[]>('GET', 'admin/users/carol/badges')).body.map((b) => b.Slug)).toEqual(['early']);
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'], CAROL)).code).toBe(0);
  });

  it('policy.badges declares a badge no user carries yet; a slug it does not list is still refused', async () => {
    w = await world(seed);
    const file = w.config(userWith('maintainer', '', 'policy:\n  badges: [maintainer]\n'));
    const apply = await w.cli(['apply', '-c', file, '--yes'], CAROL);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain('badges [maintainer]');
    expect((await w.api<{ Slug: string }[]>('GET', 'admin/users/carol/badges')).body.map((b) => b.Slug)).toEqual(['maintainer']);
    expect((await w.cli(['plan', '-c', file, '--detailed-exitcode'], CAROL)).code).toBe(0);
    const typo = userWith('maintainer, mantainer', '', 'policy:\n  badges: [maintainer]\n');
    const refused = w.config(typo, 'typo.yaml');
    const plan = await w.cli(['plan', '-c', refused, '--detailed-exitcode'], CAROL);
    expect(plan.code, plan.stdout + plan.stderr).toBe(1);
    expect(plan.stderr).toContain(`${refused}:${placeIn(typo, 'mantainer')}: user "carol": badge "mantainer" is not known: the server has no API that lists its badges (they are made in its web admin), no user this plan reads carries it, and policy.badges does not list it (maintainer)`);
    expect(plan.stderr).not.toContain('badge "maintainer"');
  });

  it('export keeps round-tripping: every slug it writes is carried by a user the plan of that file reads', async () => {
    w = await world({ ...seed, users: [...(people ?? []), { username: 'bob', email: 'bob@example.com', badges: ['maintainer', 'early'] }] });
    const text = await exportRoundTrip(w);
    expect(text).toMatch(/bob:[\s\S]*badges:[\s\S]*maintainer/);
  });
});
