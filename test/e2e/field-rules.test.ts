import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeedFile } from '../../src/sandbox/index.js';
import { applies, calls, planExits, world, type World } from './helpers.js';
import { rootAnd, rootAndAcme } from '../support/seeds.js';

/**
 * The binding rules of each release's option structs (src/releases/field-rules, read from the tags):
 * a config value the release would refuse with a 422 is a plan error at its file:line:col, naming the
 * rule, the release and the source line, before any state is read; the same value on a release that
 * takes it converges (plan → apply → plan exit 0). The sandbox binds with the same table, so an apply
 * that got past the plan would fail there as on the real server.
 */

const seed: SeedFile = rootAndAcme({ users: rootAnd('alice'), repos: [{ name: 'acme/widgets' }] });

/** The line and column of the first occurrence of `text` in a config (1-based), as errors point at it. */
function placeIn(yaml: string, text: string): string {
  const before = yaml.slice(0, yaml.indexOf(text)).split('\n');
  return `${before.length}:${before[before.length - 1]!.length + 1}`;
}

const onlyPreflight = (w: World) => expect(calls(w.sandbox).filter((c) => !c.endsWith('version'))).toEqual([]);

const LONG_TEAM = 'release-engineering-and-tools-x';
const team = `version: 1
orgs:
  acme:
    teams:
      ${LONG_TEAM}:
        permission: read
        units_map:
          repo.code: read
`;

describe("a release's binding rules at plan time", () => {
  const worlds: Record<string, World> = {};
  const FLAVOURS = ['gitea@1.21', 'forgejo@7', 'gitea@1.25', 'forgejo@11'];
  beforeAll(async () => {
    const made = await Promise.all(FLAVOURS.map((flavour) => world(seed, { flavour })));
    FLAVOURS.forEach((f, i) => (worlds[f] = made[i]!));
  });
  afterAll(async () => Promise.all(Object.values(worlds).map((w) => w.sandbox.close())));

  it('a 31-character team name is refused at its key on Gitea 1.21 and Forgejo 7 (MaxSize(30)), and converges on Gitea 1.25 and Forgejo 11', async () => {
    expect(LONG_TEAM).toHaveLength(31);
    for (const [flavour, version] of [['gitea@1.21', 'Gitea 1.21.11'], ['forgejo@7', 'Forgejo 7.0.16']] as const) {
      const w = worlds[flavour]!;
      const file = w.config(team, 'team.yaml');
      w.sandbox.clearRequests();
      const r = await planExits(w, file, 1);
      expect(r.stderr).toContain(`${file}:${placeIn(team, LONG_TEAM)}: the name "${LONG_TEAM}" (sent as name): must be at most 30 characters on ${version} (modules/structs/org_team.go:27 CreateTeamOption.Name: binding:"Required;AlphaDashDot;MaxSize(30)")`);
      expect(r.stderr).toContain('Planning failed: nothing was changed.');
      onlyPreflight(w);
    }
    for (const flavour of ['gitea@1.25', 'forgejo@11']) {
      const w = worlds[flavour]!;
      const file = w.config(team, 'team.yaml');
      await planExits(w, file, 2);
      await applies(w, file);
      await planExits(w, file, 0);
    }
  });

  it("an organisation's full name over 100 characters and a website that is no URL: both refused at their places on every release", async () => {
    const yaml = `version: 1
orgs:
  acme:
    full_name: ${'F'.repeat(101)}
    website: acme.example
`;
    for (const flavour of FLAVOURS) {
      const w = worlds[flavour]!;
      const file = w.config(yaml, 'org.yaml');
      w.sandbox.clearRequests();
      const r = await planExits(w, file, 1);
      expect(r.stderr).toMatch(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:${placeIn(yaml, 'full_name')}: full_name: must be at most 100 characters on \\S+ \\S+ \\(modules/structs/org.go:\\d+ (Create|Edit)OrgOption.FullName`));
      expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'website')}: website: must be an http or https URL on `);
      onlyPreflight(w);
    }
  });

  it('a valid organisation edit at the limits converges', async () => {
    const yaml = `version: 1
orgs:
  acme:
    full_name: ${'F'.repeat(100)}
    website: https://acme.example
`;
    const w = worlds['gitea@1.25']!;
    const file = w.config(yaml, 'org-ok.yaml');
    await planExits(w, file, 2);
    await applies(w, file);
    await planExits(w, file, 0);
  });

  it("a repository webhook's branch filter that is no glob is refused at its place", async () => {
    const yaml = `version: 1
repos:
  acme/widgets:
    webhooks:
      - url: https://ci.example/hook
        events: [push]
        branch_filter: "{main"
`;
    const w = worlds['gitea@1.25']!;
    const file = w.config(yaml, 'hook.yaml');
    w.sandbox.clearRequests();
    const r = await planExits(w, file, 1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'branch_filter')}: branch_filter: must be a valid glob pattern on Gitea 1.25.4 (modules/structs/hook.go:63 CreateHookOption.BranchFilter: binding:"GlobPattern")`);
    onlyPreflight(w);
  });

  it("a user's website: refused at its place on Gitea 1.21 whatever it is (the binder judges the pointer's address, go-gitea/gitea#30518), converging on Gitea 1.25 and Forgejo 7", async () => {
    const yaml = `version: 1
users:
  alice:
    email: alice@example.com
    website: https://alice.example
`;
    const old = worlds['gitea@1.21']!;
    const file = old.config(yaml, 'user.yaml');
    old.sandbox.clearRequests();
    const r = await planExits(old, file, 1);
    expect(r.stderr).toContain(`${file}:${placeIn(yaml, 'website')}: website: cannot be set through the API of Gitea 1.21.11: its binder checks ValidUrl on the field's address, not its value, and refuses every value (modules/structs/admin_user.go:42 EditUserOption.Website`);
    expect(r.stderr).toContain('422 [Website]: Url');
    onlyPreflight(old);
    for (const flavour of ['gitea@1.25', 'forgejo@7']) {
      const w = worlds[flavour]!;
      const f = w.config(yaml, 'user.yaml');
      await planExits(w, f, 2);
      await applies(w, f);
      await planExits(w, f, 0);
    }
  });
});
