/**
 * Conformance of the organisation public-membership routes (issue 21): what each release's source does,
 * read tag by tag (Gitea v1.21.11, v1.22.6, v1.23.8, v1.24.7, v1.25.4, main 423cdd4d94 as 1.26; Forgejo
 * v7.0.16, v11.0.15, v15.0.3), each fact with its citation, against the sandbox playing each release.
 * Handler: routers/api/v1/org/member.go (ListPublicMembers, IsPublicMember, PublicizeMember, ConcealMember,
 * listMembers); routes: routers/api/v1/api.go `/public_members` group; model: models/organization/org.go
 * (FindOrgMembersOpts, ChangeOrgUserStatus).
 */
import { available, type Availability } from '../../src/sandbox/flavours/releases.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';
import { checkFacts } from './run-facts.js';

/** checkCanChangeOrgUserStatus: admins and owners may change others (Gitea 1.24, #28294); before and in Forgejo only the user themself. */
const OTHERS_BY_ADMINS: Availability = { gitea: { since: '1.24' } };
/** PublicOnly() false for a site administrator on the public list (Gitea 1.23, #32234; Forgejo 10+). */
const ADMIN_LIST_HAS_ALL: Availability = { gitea: { since: '1.23' }, forgejo: { since: 10 } };

const SEED: SeedFile = {
  users: [
    { username: 'root', admin: true, email: 'root@example.com' },
    { username: 'alice', email: 'alice@example.com', token: 'alice-token' },
    { username: 'bob', email: 'bob@example.com' },
    { username: 'carol', email: 'carol@example.com' },
    { username: 'erin', email: 'erin@example.com', token: 'erin-token' },
  ],
  orgs: [{ name: 'pmo', owners: ['root'], teams: [{ name: 'crew', permission: 'read', members: ['alice', 'bob', 'carol'], repos: [] }], public_members: ['bob', 'carol'] }],
};

const status = async (h: Harness, method: string, path: string, token?: string): Promise<number> => (await h.call(method, path, token ? { token } : {})).status;
const message = async (h: Harness, method: string, path: string, token?: string): Promise<unknown> => {
  const r = await h.call<{ message?: string }>(method, path, token ? { token } : {});
  return [r.status, r.json?.message];
};

const FACTS: Fact[] = [
  {
    id: 'GET /public_members/{user}: 204 for a public member, 404 for a private one',
    cite: 'member.go IsPublicMember Gitea v1.21.11 l.193–206 (IsPublicMembership), the same in every release read',
    expected: () => [204, 404],
    async observe(h) {
      return [await status(h, 'GET', 'orgs/pmo/public_members/bob'), await status(h, 'GET', 'orgs/pmo/public_members/alice')];
    },
  },
  {
    id: 'a member publicizes and conceals their own membership: 204 each',
    cite: 'member.go PublicizeMember / ConcealMember Gitea v1.21.11 l.235–248, l.277–290; v1.24.7 l.256–268 (checkCanChangeOrgUserStatus lets the user themself)',
    expected: () => [204, 204, 204, 404],
    async observe(h) {
      const a = await status(h, 'PUT', 'orgs/pmo/public_members/alice', 'alice-token');
      const b = await status(h, 'GET', 'orgs/pmo/public_members/alice');
      const c = await status(h, 'DELETE', 'orgs/pmo/public_members/alice', 'alice-token');
      return [a, b, c, await status(h, 'GET', 'orgs/pmo/public_members/alice')];
    },
  },
  {
    id: "a site administrator changing another member's: 403 (Gitea ≤ 1.23, Forgejo) or 204 (Gitea 1.24+)",
    cite: 'member.go PublicizeMember Gitea v1.23.8 l.239–242 ("Cannot publicize another member"), Forgejo v15.0.3 l.239–242; Gitea v1.24.7 l.214–226 checkCanChangeOrgUserStatus (doer.IsAdmin or IsOwnedBy)',
    expected: (f) => (available(f, OTHERS_BY_ADMINS) ? [[204, undefined], [204, undefined]] : [[403, 'Cannot publicize another member'], [403, 'Cannot conceal another member']]),
    async observe(h) {
      return [await message(h, 'PUT', 'orgs/pmo/public_members/alice'), await message(h, 'DELETE', 'orgs/pmo/public_members/carol')];
    },
  },
  {
    id: 'a user who is no member: the token must be a member (403) — and made public by an admin it is 204 with nothing changed',
    cite: 'api.go reqOrgMembership Gitea v1.21.11 l.496–523 ("Must be an organization member"); models/organization/org.go ChangeOrgUserStatus v1.24.7 l.478–493 (no org_user row → nil)',
    expected: (f) => [[403, 'Must be an organization member'], available(f, OTHERS_BY_ADMINS) ? [204, 404] : [403, 404]],
    async observe(h) {
      const own = await message(h, 'PUT', 'orgs/pmo/public_members/erin', 'erin-token');
      const byAdmin = await status(h, 'PUT', 'orgs/pmo/public_members/erin');
      return [own, [byAdmin, await status(h, 'GET', 'orgs/pmo/public_members/erin')]];
    },
  },
  {
    id: 'GET /public_members as a site administrator: the public members (Gitea ≤ 1.22, Forgejo 7) or every member (Gitea 1.23+, Forgejo 10+)',
    cite: 'member.go ListPublicMembers Gitea v1.22.6 l.115 (listMembers(ctx, true): PublicOnly), v1.23.8 l.119 (listMembers(ctx, false)) with org.go l.198–200 PublicOnly() = Doer == nil || !(IsDoerMember || Doer.IsAdmin); Forgejo v11.0.15 org.go l.197–199',
    expected: (f) => (available(f, ADMIN_LIST_HAS_ALL) ? ['alice', 'bob', 'carol', 'root'] : ['bob', 'carol']),
    async observe(h) {
      return (await h.call<{ login: string }[]>('GET', 'orgs/pmo/public_members?limit=50')).json.map((u) => u.login).sort();
    },
  },
  {
    id: 'GET /public_members anonymously and as a member: only the public members',
    cite: 'org.go PublicOnly(): Doer == nil → true (Gitea v1.23.8 l.198–200); a member asking the public list has IsDoerMember false (member.go l.119)',
    // After the facts above: where an administrator may change others, alice was made public and carol private.
    expected: (f) => (available(f, OTHERS_BY_ADMINS) ? [['alice', 'bob'], ['alice', 'bob']] : [['bob', 'carol'], ['bob', 'carol']]),
    async observe(h) {
      const anon = (await h.call<{ login: string }[]>('GET', 'orgs/pmo/public_members', { token: null })).json.map((u) => u.login).sort();
      const member = (await h.call<{ login: string }[]>('GET', 'orgs/pmo/public_members', { token: 'alice-token' })).json.map((u) => u.login).sort();
      return [anon, member];
    },
  },
  {
    id: 'the public list is paged (limit) with X-Total-Count',
    cite: 'member.go listMembers Gitea v1.21.11 l.21–47 (utils.GetListOptions, SetTotalCountHeader(count))',
    expected: () => [1, '2'],
    async observe(h) {
      const r = await h.call<unknown[]>('GET', 'orgs/pmo/public_members?limit=1&page=1', { token: null });
      return [r.json.length, r.headers.get('x-total-count')];
    },
  },
];

checkFacts('%s: public members conform to the source', SEED, FACTS);
