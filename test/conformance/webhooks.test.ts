/**
 * Conformance of the repository and organisation webhook routes (issue 21): what each release's source
 * does with them, read tag by tag (Gitea v1.21.11, v1.22.6, v1.23.8, v1.24.7, v1.25.4; Forgejo v7.0.16,
 * v11.0.15, v15.0.3), each fact with its citation, against the sandbox playing each release.
 * Handlers: routers/api/v1/repo/hook.go, routers/api/v1/org/hook.go; helpers: routers/api/v1/utils/hook.go
 * (addHook and editHook, shared with the admin hooks), services/webhook/general.go (ToHook),
 * services/webhook/webhook.go (IsValidHookTaskType). The admin hooks' own facts (events by release,
 * names) are in facts.ts and hold here too: the same addHook and editHook write every hook.
 */
import type { Flavour } from '../../src/sandbox/flavours/flavour.js';
import { available, type Availability } from '../../src/sandbox/flavours/releases.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';
import { checkFacts } from './run-facts.js';


interface HookAnswer {
  id: number;
  type: string;
  active: boolean;
  events: string[];
  branch_filter: string;
  authorization_header: string;
  config: Record<string, string>;
}

const on = (f: Flavour, a: Availability): boolean => available(f, a);
/** `validation.IsValidURL` in checkCreateHookOption and editHook: Gitea v1.24.7 l.96 and l.340, Forgejo v15.0.3 l.97 and l.331 (none in v1.23.8, v11.0.15). */
const CHECKS_URL: Availability = { gitea: { since: '1.24' }, forgejo: { since: 15 } };

export const SEED: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'hco', owners: ['root'] }],
  repos: [{ name: 'hco/app' }, { name: 'hco/paged' }, { name: 'hco/frozen', archived: true }],
};

let seq = 0;
/** A new hook of a repository or organisation (`base`: repos/hco/app or orgs/hco), its URL unique per fact. */
async function newHook(h: Harness, base: string, body: Record<string, unknown> = {}): Promise<{ status: number; json: HookAnswer }> {
  const { config, ...rest } = body;
  const r = await h.call<HookAnswer>('POST', `${base}/hooks`, { body: { type: 'gitea', config: { url: `https://ci.example.com/${++seq}`, content_type: 'json', ...(config as object) }, ...rest } });
  return { status: r.status, json: r.json };
}

export const FACTS: Fact[] = [
  {
    id: 'the repository list is paged: X-Total-Count, no Link header, in id order',
    cite: 'repo/hook.go ListHooks: Gitea v1.21.11 l.57 (GetListOptions) and l.82 (SetTotalCountHeader only), v1.25.4 l.58 and l.77; Forgejo v15.0.3 l.57 and l.76',
    expected: () => ({ count: 2, total: '3', link: null, ordered: true }),
    async observe(h) {
      const made = [];
      for (let i = 0; i < 3; i++) made.push((await newHook(h, 'repos/hco/paged')).json.id);
      const r = await h.call<HookAnswer[]>('GET', 'repos/hco/paged/hooks?limit=2&page=1');
      return { count: r.json.length, total: r.headers.get('x-total-count'), link: r.headers.get('link'), ordered: r.json.map((x) => x.id).join() === made.slice(0, 2).join() };
    },
  },
  {
    id: 'the organisation list is paged the same way (ListOwnerHooks)',
    cite: 'utils/hook.go ListOwnerHooks: Gitea v1.21.11 l.24-53 (SetTotalCountHeader l.51), v1.25.4 l.25-47; org/hook.go ListHooks v1.21.11 l.43',
    expected: () => ({ total: '1', link: null }),
    async observe(h) {
      await newHook(h, 'orgs/hco');
      const r = await h.call<HookAnswer[]>('GET', 'orgs/hco/hooks?limit=1');
      return { total: r.headers.get('x-total-count'), link: r.headers.get('link') };
    },
  },
  {
    id: 'a create without active makes an inactive hook; without events, a push hook; the secret is never answered',
    cite: 'utils/hook.go addHook: Gitea v1.21.11 l.171-173 (events → push), l.187 (Secret), l.216 (IsActive: form.Active); v1.25.4 l.164, l.219, l.227',
    expected: () => ({ status: 201, active: false, events: ['push'], secret: undefined }),
    async observe(h) {
      const r = await newHook(h, 'repos/hco/app', { config: { secret: 's3cret' } });
      return { status: r.status, active: r.json.active, events: r.json.events, secret: r.json.config.secret };
    },
  },
  {
    id: 'the authorization header is answered in clear by every release',
    cite: 'services/webhook/general.go ToHook: Gitea v1.25.4 l.394-419, Forgejo v15.0.3 l.336-367 (AuthorizationHeader: the decrypted header)',
    expected: () => 'Bearer t0k',
    async observe(h) {
      return (await newHook(h, 'orgs/hco', { authorization_header: 'Bearer t0k' })).json.authorization_header;
    },
  },
  {
    id: 'an edit resets what it omits: events to push, branch filter and authorization header cleared; config.secret ignored',
    cite: 'utils/hook.go editHook: Gitea v1.21.11 l.358-360 (events → push), l.372 (BranchFilter), l.374 (SetHeaderAuthorization), no Secret; v1.25.4 l.377, l.379; Forgejo v15.0.3 l.328-379',
    expected: () => ({ status: 200, events: ['push'], branch_filter: '', authorization_header: '', secret: 'first' }),
    async observe(h) {
      const made = (await newHook(h, 'repos/hco/app', { config: { secret: 'first' }, events: ['release'], branch_filter: 'main', authorization_header: 'Bearer x', active: true })).json;
      const r = await h.call<HookAnswer>('PATCH', `repos/hco/app/hooks/${made.id}`, { body: { config: { secret: 'second' } } });
      const stored = h.sb.state.data.webhooks.find((x) => x.id === made.id);
      return { status: r.status, events: r.json.events, branch_filter: r.json.branch_filter, authorization_header: r.json.authorization_header, secret: stored?.secret };
    },
  },
  {
    id: 'an unknown hook id is 404 for PATCH and DELETE, of a repository and of an organisation (the admin PATCH answers 500)',
    cite: 'utils/hook.go GetRepoHook / GetOwnerHook: Gitea v1.21.11 l.71-82 and l.56-67 (NotFound), DeleteOwnerHook l.414-424; repo/hook.go DeleteHook l.304-310; Forgejo v15.0.3 l.52-80',
    expected: () => [404, 404, 404, 404],
    async observe(h) {
      const id = 999999;
      return Promise.all([
        h.call('PATCH', `repos/hco/app/hooks/${id}`, { body: { active: true } }),
        h.call('DELETE', `repos/hco/app/hooks/${id}`),
        h.call('PATCH', `orgs/hco/hooks/${id}`, { body: { active: true } }),
        h.call('DELETE', `orgs/hco/hooks/${id}`),
      ]).then((rs) => rs.map((r) => r.status));
    },
  },
  {
    id: 'a hook of another repository is not found through this one',
    cite: 'models/webhook/webhook.go GetWebhookByRepoID Gitea v1.21.11 l.408-410 (id=? AND repo_id=?), called by utils/hook.go GetRepoHook l.72',
    expected: () => 404,
    async observe(h) {
      const other = (await newHook(h, 'repos/hco/paged')).json;
      return (await h.call('GET', `repos/hco/app/hooks/${other.id}`)).status;
    },
  },
  {
    id: 'an archived repository takes hook writes: the hook routes have no mustNotBeArchived (no 423)',
    cite: 'routers/api/v1/api.go: the /hooks group behind reqToken(), reqAdmin(), reqWebhooksEnabled() only, Gitea v1.21.11 l.1067-1076, v1.25.4 l.1224-1233, Forgejo v15.0.3 l.1158-1167',
    expected: () => [201, 200, 204],
    async observe(h) {
      const made = await newHook(h, 'repos/hco/frozen');
      const edit = await h.call('PATCH', `repos/hco/frozen/hooks/${made.json.id}`, { body: { active: true } });
      const del = await h.call('DELETE', `repos/hco/frozen/hooks/${made.json.id}`);
      return [made.status, edit.status, del.status];
    },
  },
  {
    id: 'type forgejo: created on Forgejo, 422 Invalid hook type on Gitea',
    cite: 'services/webhook/webhook.go IsValidHookTaskType: Gitea v1.21.11 l.72-78 (gitea, gogs and the webhooks map), v1.25.4 l.37-43; Forgejo v7.0.16, v11.0.15, v15.0.3 l.43-58 (webhookHandlers: defaultHandler{true} is forgejo, sourcehut.BuildsHandler) and l.76-78',
    expected: (f) => (f.fork === 'forgejo' ? { status: 201, type: 'forgejo' } : { status: 422, type: undefined }),
    async observe(h) {
      const r = await newHook(h, 'repos/hco/app', { type: 'forgejo' });
      return { status: r.status, type: r.status === 201 ? r.json.type : undefined };
    },
  },
  {
    id: 'an invalid URL is refused (422 Invalid url) from Gitea 1.24 and Forgejo 15, stored before',
    cite: 'utils/hook.go checkCreateHookOption: Gitea v1.24.7 l.96, v1.25.4 l.96, Forgejo v15.0.3 l.97 (validation.IsValidURL); absent in v1.23.8 and v11.0.15',
    expected: (f) => (on(f, CHECKS_URL) ? 422 : 201),
    async observe(h) {
      const r = await h.call('POST', 'repos/hco/app/hooks', { body: { type: 'gitea', config: { url: 'ftp://ci.example.com/x', content_type: 'json' } } });
      return r.status;
    },
  },
];


checkFacts('%s: repository and organisation webhooks conform to the source', SEED, FACTS, { reset: () => (seq = 0) });
