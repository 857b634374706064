/**
 * Conformance of the tag protection routes (issue 21): what each release's source does, read tag by tag
 * (Gitea v1.21.11, v1.22.6, v1.23.8, v1.24.7, v1.25.4, main 423cdd4d94 as 1.26; Forgejo v7.0.16, v11.0.15,
 * v15.0.3), each fact with its citation, against the sandbox playing each release. Handler:
 * routers/api/v1/repo/tag.go (ListTagProtection … DeleteTagProtection); model: models/git/protected_tag.go;
 * answer: services/convert/convert.go ToTagProtection. Line numbers are Gitea v1.23.8's unless said; Gitea
 * 1.24–1.26 and Forgejo 11/15 differ only in error helpers (ctx.APIError) and ParamsInt64.
 */
import type { Flavour } from '../../src/sandbox/flavours/flavour.js';
import { available, type Availability } from '../../src/sandbox/flavours/releases.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';
import { checkFacts } from './run-facts.js';


interface TagProtection {
  id: number;
  name_pattern: string;
  whitelist_usernames: string[];
  whitelist_teams: string[];
  created_at: string;
  updated_at: string;
}

/** The routes: Gitea 1.23 (#31295, d4e4226c3c), Forgejo 8 (api.go of v8.0.0); none in Gitea 1.21/1.22 nor Forgejo 7. */
const ROUTES: Availability = { gitea: { since: '1.23' }, forgejo: { since: 8 } };
const on = (f: Flavour): boolean => available(f, ROUTES);

const SEED: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com' },
    { username: 'bob', email: 'bob@example.com' },
    { username: 'dave', email: 'dave@example.com' },
  ],
  orgs: [{ name: 'tpo', owners: ['root'], teams: [{ name: 'crew', permission: 'write', members: ['alice', 'bob'], repos: ['app'] }, { name: 'idle', permission: 'write', members: [], repos: [] }] }],
  repos: [{ name: 'tpo/app', private: true }, { name: 'tpo/frozen', archived: true }, { name: 'alice/own', private: true }],
};

let seq = 0;
/** A new protection of tpo/app, its pattern unique per fact. */
async function create(h: Harness, body: Record<string, unknown>, repo = 'tpo/app'): Promise<{ status: number; json: TagProtection }> {
  const r = await h.call<TagProtection>('POST', `repos/${repo}/tag_protections`, { body: { name_pattern: `p${++seq}-*`, ...body } });
  return { status: r.status, json: r.json };
}

const FACTS: Fact[] = [
  {
    id: 'the list route exists only where the release has it (404 elsewhere)',
    cite: 'routers/api/v1/api.go: Gitea v1.23.8 l.1217–1225, Forgejo v11.0.15 l.1179–1187, v15.0.3 l.1226–1234 (reqToken(), reqAdmin()); absent from Gitea v1.21.11, v1.22.6 and Forgejo v7.0.16',
    expected: (f) => (on(f) ? 200 : 404),
    async observe(h) {
      return (await h.call('GET', 'repos/tpo/app/tag_protections')).status;
    },
  },
  {
    id: 'create: 201, the pattern trimmed, the answer has id, name_pattern, both lists and the times',
    cite: 'tag.go CreateTagProtection l.415 (strings.TrimSpace), l.458–463, l.480 (201, ToTagProtection); modules/structs/repo_tag.go l.45–54',
    expected: (f) => (on(f) ? { status: 201, pattern: 'spaced-*', keys: ['created_at', 'id', 'name_pattern', 'updated_at', 'whitelist_teams', 'whitelist_usernames'], users: ['alice'] } : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      const r = await h.call<TagProtection>('POST', 'repos/tpo/app/tag_protections', { body: { name_pattern: '  spaced-*  ', whitelist_usernames: ['Alice'] } });
      return { status: r.status, pattern: r.json.name_pattern, keys: Object.keys(r.json).sort(), users: r.json.whitelist_usernames };
    },
  },
  {
    id: 'create with both lists empty is a 400; an empty pattern too',
    cite: 'tag.go CreateTagProtection l.415–424 ("name_pattern are empty", "both whitelist_usernames and whitelist_teams are empty")',
    expected: (f) => (on(f) ? [400, 400] : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      return [(await create(h, {})).status, (await create(h, { name_pattern: '  ', whitelist_usernames: ['alice'] })).status];
    },
  },
  {
    id: 'a second protection of the same pattern is a 403',
    cite: 'tag.go CreateTagProtection l.426–433 (GetProtectedTagByNamePattern; "Tag protection already exist")',
    expected: (f) => (on(f) ? 403 : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      await h.call('POST', 'repos/tpo/app/tag_protections', { body: { name_pattern: 'twice-*', whitelist_usernames: ['alice'] } });
      return (await h.call('POST', 'repos/tpo/app/tag_protections', { body: { name_pattern: 'twice-*', whitelist_usernames: ['bob'] } })).status;
    },
  },
  {
    id: 'an unknown user or team is a 422 and nothing is created',
    cite: 'tag.go CreateTagProtection l.436–456 (GetUserIDsByNames / GetTeamIDsByNames with ignoreNonExistent false → 422)',
    expected: (f) => (on(f) ? [422, 422, 0] : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      const before = (await h.call<TagProtection[]>('GET', 'repos/tpo/app/tag_protections')).json.length;
      const a = await create(h, { whitelist_usernames: ['ghost'] });
      const b = await create(h, { whitelist_teams: ['phantoms'] });
      const after = (await h.call<TagProtection[]>('GET', 'repos/tpo/app/tag_protections')).json.length;
      return [a.status, b.status, after - before];
    },
  },
  {
    id: "team lists are ignored on a user's repository (201, no team kept), not refused",
    cite: 'tag.go CreateTagProtection l.446–456 (teams resolved only `if repo.Owner.IsOrganization()`)',
    expected: (f) => (on(f) ? { status: 201, teams: [] } : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      const r = await create(h, { whitelist_usernames: ['alice'], whitelist_teams: ['whoever'] }, 'alice/own');
      return { status: r.status, teams: r.json.whitelist_teams };
    },
  },
  {
    id: 'the answer lists only users who can read the repository and teams that have it (stored, not shown)',
    cite: 'convert.go ToTagProtection Gitea v1.23.8 l.421–434 (GetRepoReaders, TeamsWithAccessToRepo → team_repo.go l.78–86), Forgejo v11.0.15 l.415–428; Gitea v1.25.4 l.723–736 (GetUsersWithUnitAccess, GetTeamsWithAccessToAnyRepoUnit)',
    expected: (f) => (on(f) ? { users: ['alice'], teams: ['crew'] } : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      const r = await create(h, { whitelist_usernames: ['alice', 'dave'], whitelist_teams: ['crew', 'idle'] });
      return { users: r.json.whitelist_usernames, teams: r.json.whitelist_teams };
    },
  },
  {
    id: 'PATCH: a list absent is kept, [] empties it, name_pattern is taken untrimmed',
    cite: 'tag.go EditTagProtection l.537–568 (form.NamePattern != nil, form.WhitelistTeams != nil, form.WhitelistUsernames != nil; no TrimSpace)',
    expected: (f) => (on(f) ? { status: 200, pattern: ' renamed ', users: [], teams: ['crew'] } : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      const c = await create(h, { whitelist_usernames: ['alice'], whitelist_teams: ['crew'] });
      const r = await h.call<TagProtection>('PATCH', `repos/tpo/app/tag_protections/${c.json.id}`, { body: { name_pattern: ' renamed ', whitelist_usernames: [] } });
      return { status: r.status, pattern: r.json.name_pattern, users: r.json.whitelist_usernames, teams: r.json.whitelist_teams };
    },
  },
  {
    id: 'the list is not paged: limit is ignored',
    cite: 'tag.go ListTagProtection l.317–328 (GetProtectedTags: every protection of the repository, protected_tag.go l.94–98)',
    expected: (f) => (on(f) ? true : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      await create(h, { whitelist_usernames: ['alice'] });
      await create(h, { whitelist_usernames: ['alice'] });
      return (await h.call<TagProtection[]>('GET', 'repos/tpo/app/tag_protections?limit=1&page=1')).json.length >= 2;
    },
  },
  {
    id: 'DELETE: 204, then the id is a 404; an id of another repository is a 404',
    cite: 'tag.go DeleteTagProtection l.619–638; GetTagProtection l.360–371 (pt.RepoID != repo.ID → NotFound)',
    expected: (f) => (on(f) ? [404, 204, 404] : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      const c = await create(h, { whitelist_usernames: ['alice'] });
      const foreign = await h.call('DELETE', `repos/alice/own/tag_protections/${c.json.id}`);
      const gone = await h.call('DELETE', `repos/tpo/app/tag_protections/${c.json.id}`);
      return [foreign.status, gone.status, (await h.call('GET', `repos/tpo/app/tag_protections/${c.json.id}`)).status];
    },
  },
  {
    id: 'an archived repository: POST is a 423 (mustNotBeArchived), the list is read',
    cite: 'api.go Gitea v1.23.8 l.1219 (Post(…, mustNotBeArchived, …)), l.1222 (Patch likewise; Delete has no check)',
    expected: (f) => (on(f) ? [200, 423] : 'no route'),
    async observe(h, f) {
      if (!on(f)) return 'no route';
      return [(await h.call('GET', 'repos/tpo/frozen/tag_protections')).status, (await create(h, { whitelist_usernames: ['root'] }, 'tpo/frozen')).status];
    },
  },
];


checkFacts('%s: tag protections conform to the source', SEED, FACTS, { reset: () => (seq = 0) });
