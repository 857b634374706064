/**
 * The sandbox's release data (src/sandbox/flavours/releases.ts) and forgeform's availability data (the
 * kinds' fields and features) against each release's own API description: the tables that
 * scripts/swagger-tables.mjs generated from every tag's `templates/swagger/v1_json.tmpl`
 * (src/sandbox/flavours/swagger/*.json, committed). A struct or route difference between releases that
 * the hand-written data misses fails here. Where a handler answers otherwise than its swagger says, the
 * handler wins: SWAGGER_EXCEPTIONS says so, with its source.
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import { emptyState } from '../../src/sandbox/core/state-file.js';
import { ApiRouter } from '../../src/sandbox/http/router.js';
import { optionFor } from '../../src/sandbox/flavours/options.js';
import { routeShape } from '../../src/sandbox/flavours/swagger.js';
import { serverHas, type Availability, type ServerInfo } from '../../src/model/index.js';
import { FLAVOURS, type Flavour } from '../../src/sandbox/flavours/flavour.js';
import { ANSWER_FIELDS, answerHas, available, REQUEST_FIELDS, ROUTES, shapeAnswer } from '../../src/sandbox/flavours/releases.js';
import { SWAGGER_EXCEPTIONS } from '../../src/sandbox/flavours/swagger-exceptions.js';
import { sandboxRoutes } from '../support/sandbox-routes.js';
import { swaggerOf } from '../support/swagger.js';

/** Every release with a swagger: all but the idealised gitea@main. */
const RELEASED = FLAVOURS.filter((f) => Number.isFinite(f.release));

const serverOf = (f: Flavour): ServerInfo => ({ flavour: f.fork, version: f.version.replace(/\+.*$/, '') });

/** What the swagger says, unless a handler is known to differ (then what the handler does). */
function truth(f: Flavour, what: string, inSwagger: boolean): boolean {
  const exception = SWAGGER_EXCEPTIONS[what];
  return exception ? available(f, exception.handler) : inSwagger;
}

describe('the committed swagger tables', () => {
  it('exist for every released flavour and list the routes and structs forgeform uses', () => {
    for (const f of RELEASED) {
      const s = swaggerOf(f)!;
      expect(s, f.name).toBeDefined();
      expect(s.routes).toContain('GET /admin/users');
      expect(s.definitions.User).toContain('login');
    }
  });
});

describe.each(RELEASED.map((f) => [f.name, f] as const))('%s: the sandbox’s release data agrees with the swagger', (_name, f) => {
  const s = swaggerOf(f)!;

  it('answer keys (ANSWER_FIELDS)', () => {
    const wrong: string[] = [];
    for (const [struct, keys] of Object.entries(ANSWER_FIELDS)) {
      for (const [key, a] of Object.entries(keys)) {
        const want = truth(f, `${struct}.${key}`, (s.definitions[struct] ?? []).includes(key));
        if (available(f, a) !== want) wrong.push(`${struct}.${key}: sandbox ${available(f, a)}, swagger ${want}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('request fields (REQUEST_FIELDS)', () => {
    const wrong: string[] = [];
    for (const [struct, keys] of Object.entries(REQUEST_FIELDS)) {
      for (const [key, a] of Object.entries(keys)) {
        const want = truth(f, `${struct}.${key}`, (s.definitions[struct] ?? []).includes(key));
        if (available(f, a) !== want) wrong.push(`${struct}.${key}: sandbox ${available(f, a)}, swagger ${want}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('routes (ROUTES)', () => {
    const wrong: string[] = [];
    for (const [route, a] of Object.entries(ROUTES)) {
      const want = truth(f, route, s.routes.includes(route));
      if (available(f, a) !== want) wrong.push(`${route}: sandbox ${available(f, a)}, swagger ${want}`);
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * Where each release-dependent field or feature of forgeform lives in the API: a request field, an
 * answer key or a route. A new one without an entry fails the test below.
 */
const FORGEFORM_SOURCES: Record<string, string> = {
  'user.source_id': 'User.source_id',
  'user.pronouns': 'EditUserOption.pronouns',
  'user.badges': 'POST /admin/users/:username/badges',
  'hook.name': 'EditHookOption.name',
  'repo_webhook.name': 'EditHookOption.name',
  'org_webhook.name': 'EditHookOption.name',
  'runner.disabled': 'PATCH /admin/actions/runners/:runner_id',
  'runner.(kind)': 'GET /admin/actions/runners',
  'tag_protection.(kind)': 'GET /repos/:owner/:repo/tag_protections',
  'issue.projects': 'EditIssueOption.projects',
  'repo_actions_secret.(kind)': 'GET /repos/:owner/:repo/actions/secrets',
  'repo_actions_secret.description': 'Secret.description',
  'org_actions_secret.description': 'Secret.description',
  'repo_actions_variable.(kind)': 'GET /repos/:owner/:repo/actions/variables',
  'org_actions_variable.(kind)': 'GET /orgs/:org/actions/variables',
  'repo_actions_variable.description': 'ActionVariable.description',
  'org_actions_variable.description': 'ActionVariable.description',
  'push_mirror.branch_filter': 'CreatePushMirrorOption.branch_filter',
  // Accepted by every release's edit, but answered (so comparable) only where the Repository struct has them.
  'repo_settings.allow_fast_forward_only_merge': 'Repository.allow_fast_forward_only_merge',
  'repo_settings.allow_manual_merge': 'Repository.allow_manual_merge',
  'repo_settings.autodetect_manual_merge': 'Repository.autodetect_manual_merge',
  // The fast-forward-only merge style came with its allow flag (Gitea #27775): where the answer has the flag, the style exists.
  'repo_settings.fastForwardDefault': 'Repository.allow_fast_forward_only_merge',
  ...Object.fromEntries(
    [
      'enable_force_push', 'enable_force_push_allowlist', 'force_push_allowlist_usernames', 'force_push_allowlist_teams', 'force_push_allowlist_deploy_keys',
      'block_on_codeowner_reviews', 'block_admin_merge_override', 'ignore_stale_approvals', 'apply_to_admins', 'enable_bypass_allowlist', 'bypass_allowlist_usernames',
      'bypass_allowlist_teams', 'enable_deletion', 'enable_deletion_allowlist', 'deletion_allowlist_usernames', 'deletion_allowlist_teams', 'priority',
    ].map((k) => [`branch_protection.${k}`, `EditBranchProtectionOption.${k}`]),
  ),
};

/** Kind features that are behaviours, not a field or route of the swagger (hook events and types: src/kinds/hook/events.ts, read from the handlers; a variable list's values: src/kinds/actions_variable/fields.ts; the schemes a push mirror's address may have: src/kinds/push_mirror/index.ts, from IsMigrateURLAllowed). */
const BEHAVIOURS = (name: string): boolean =>
  /^(hook|repo_webhook|org_webhook)\.(event_|type_)/.test(name) || ['runner.bareList', 'runner.edit', 'repo_actions_variable.repoListWithoutValues', 'push_mirror.ssh_remote'].includes(name);

function inSwagger(f: Flavour, where: string): boolean {
  const s = swaggerOf(f)!;
  if (/^[A-Z]+ \//.test(where)) return truth(f, where, s.routes.includes(where));
  const [struct, key] = where.split('.') as [string, string];
  return truth(f, where, (s.definitions[struct] ?? []).includes(key));
}

describe('forgeform’s availability data agrees with the swagger of every release', () => {
  const entries: { name: string; availability: Availability }[] = [];
  for (const kind of kinds) {
    if (kind.availability) entries.push({ name: `${kind.name}.(kind)`, availability: kind.availability });
    for (const field of kind.fields) if (field.availability) entries.push({ name: `${kind.name}.${field.name}`, availability: field.availability });
    for (const [name, feature] of Object.entries(kind.features ?? {})) if (!BEHAVIOURS(`${kind.name}.${name}`)) entries.push({ name: `${kind.name}.${name}`, availability: feature.availability });
  }

  it('every release-dependent field names where the API has it', () => {
    expect(entries.map((e) => e.name).filter((n) => !(n in FORGEFORM_SOURCES))).toEqual([]);
  });

  it.each(RELEASED.map((f) => [f.name, f] as const))('%s', (_name, f) => {
    const wrong: string[] = [];
    for (const e of entries) {
      const where = FORGEFORM_SOURCES[e.name];
      if (!where) continue;
      const has = serverHas(serverOf(f), e.availability);
      const want = inSwagger(f, where);
      if (has !== want) wrong.push(`${e.name} (${where}): forgeform ${has}, swagger ${want}`);
    }
    expect(wrong).toEqual([]);
  });
});

/**
 * The flavours play their release's tables, not only agree with them: a route, a request key or an answer
 * key is served by a released flavour exactly when its swagger has it (the handler winning, SWAGGER_EXCEPTIONS).
 */
describe.each(RELEASED.map((f) => [f.name, f] as const))('%s plays its swagger tables', (_name, f) => {
  const s = swaggerOf(f)!;
  const routes = sandboxRoutes();
  const shapes = new Set(s.routes.map(routeShape));

  it('the router registers exactly the implemented routes its swagger lists', () => {
    const served: string[] = [];
    const wrong: string[] = [];
    const r = new ApiRouter(new Hono(), emptyState(), () => '/', f);
    for (const { method, path } of routes) {
      const before = r.methodsFor(`/api/v1${path.replace(/:[^/]+|\*/g, 'x')}`).length;
      r.on(method, path);
      const registered = r.methodsFor(`/api/v1${path.replace(/:[^/]+|\*/g, 'x')}`).length > before;
      if (registered) served.push(`${method} ${path}`);
      if (registered !== truth(f, `${method} ${path}`, shapes.has(routeShape(`${method} ${path}`)))) wrong.push(`${method} ${path}: sandbox ${registered}`);
    }
    expect(wrong).toEqual([]);
    expect(served.length).toBeGreaterThan(60);
  });

  it('each bound option struct keeps exactly the keys its swagger definition has', () => {
    const wrong: string[] = [];
    for (const { option } of routes) {
      const keys = option && s.definitions[option.name];
      if (!option || !keys) continue;
      const bound = optionFor(option, f).fields.map((d) => d.json);
      for (const d of option.fields) if (bound.includes(d.json) !== truth(f, `${option.name}.${d.json}`, keys.includes(d.json))) wrong.push(`${option.name}.${d.json}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers keep exactly the keys of the release’s struct', () => {
    for (const struct of ['User', 'Organization', 'Label', 'Hook', 'Issue', 'PublicKey', 'AccessToken', 'BranchProtection']) {
      const keys = s.definitions[struct]!;
      const answer = shapeAnswer(f, struct, Object.fromEntries([...keys, 'no_such_key', 'username', 'projects'].map((k) => [k, 1])));
      expect(Object.keys(answer).sort(), struct).toEqual([...new Set([...keys, 'username'])].filter((k) => answerHas(f, struct, k)).sort());
      expect(answer, struct).not.toHaveProperty('no_such_key');
    }
  });
});
