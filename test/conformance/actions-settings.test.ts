/**
 * Conformance of the Actions secret and variable routes (issue 21): what each release's source does, read
 * tag by tag (Gitea v1.21.11, v1.22.6, v1.23.8, v1.24.7, v1.25.4, main 423cdd4d94 as 1.26; Forgejo v7.0.16,
 * v11.0.15, v15.0.3), each fact with its citation, against the sandbox playing each release. Handlers:
 * routers/api/v1/repo/action.go and org/action.go (Forgejo 7: org/secrets.go); helpers: services/secrets
 * (secrets.go, validation.go; Forgejo 15: models/secret/secret.go ValidateName), services/actions/variables.go,
 * models/secret/secret.go, models/actions/variable.go, modules/util/util.go ReserveLineBreakForTextarea.
 * The abbreviations below: repo = routers/api/v1/repo/action.go, org = routers/api/v1/org/action.go,
 * vars = services/actions/variables.go, valid = services/secrets/validation.go, msecret = models/secret/secret.go.
 */
import type { Flavour } from '../../src/sandbox/flavours/flavour.js';
import { available, type Availability } from '../../src/sandbox/flavours/releases.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import type { Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';
import { checkFacts } from './run-facts.js';

const on = (f: Flavour, a: Availability): boolean => available(f, a);
/** The variable routes and a repository's secret list: Gitea 1.22 (#29520, #30656), Forgejo 8. */
const VARIABLES: Availability = { gitea: { since: '1.22' }, forgejo: { since: 8 } };
/** Descriptions of secrets and variables (#33526): Gitea 1.24; no Forgejo. */
const DESCRIPTIONS: Availability = { gitea: { since: '1.24' } };
/** A repository's Actions routes answer 404 while its Actions unit is off: reqOwner(unit.TypeActions), Forgejo 15. */
const NEED_UNIT: Availability = { forgejo: { since: 15 } };
/** A repository's variable list without values. */
const REPO_LIST_WITHOUT_DATA: Availability = { gitea: { since: '1.22', until: '1.23' }, forgejo: { since: 8, until: 13 } };

export const SEED: SeedFile = {
  users: [{ username: 'root', admin: true, email: 'root@example.com' }],
  orgs: [{ name: 'acme', owners: ['root'], variables: { ORG_VAR: 'org value' } }],
  repos: [{ name: 'acme/app', variables: { REPO_VAR: 'repo value' } }, { name: 'acme/no-actions', has_actions: false }],
};

let seq = 0;
const fresh = (prefix: string) => `${prefix}_${++seq}`;
const status = async (h: Harness, method: string, path: string, body?: unknown): Promise<number> => (await h.call(method, path, body === undefined ? {} : { body })).status;
const message = async (h: Harness, method: string, path: string, body?: unknown): Promise<[number, unknown]> => {
  const r = await h.call<{ message?: string }>(method, path, body === undefined ? {} : { body });
  return [r.status, r.json?.message];
};
const created = (f: Flavour): number => (on(f, { gitea: { since: '1.25' } }) ? 201 : 204);

export const FACTS: Fact[] = [
  {
    id: "a repository's secret list exists from Gitea 1.22 and Forgejo 8 (PUT and DELETE in every release)",
    cite: 'routers/api/v1/api.go: Gitea v1.21.11 l.1054-1057 (PUT, DELETE only), v1.22.6 l.886-890 (GET, PUT, DELETE); Forgejo v7.0.16 l.987-990, v11.0.15 l.811-815',
    expected: (f) => ({ list: on(f, VARIABLES) ? 200 : 404, put: 201 }),
    async observe(h) {
      return { list: await status(h, 'GET', 'repos/acme/app/actions/secrets'), put: await status(h, 'PUT', `repos/acme/app/actions/secrets/${fresh('S')}`, { data: 'x' }) };
    },
  },
  {
    id: "a repository's Actions routes while its Actions unit is off: 404 NotFound on Forgejo 15, for a site administrator too; every other release serves them",
    cite:
      'Forgejo v15.0.3 routers/api/v1/api.go l.1145-1149 reqOwner(unit.TypeActions), l.428-441 (ctx.NotFound() before the owner check), services/context/api.go l.306-327 (the locale message, errors []); #10726 ba2a6fbc41. reqOwner() alone: Forgejo v14.0.0 l.1136-1140, v11.0.15 l.1098-1102, Gitea v1.25.4 l.1201; Gitea main 423cdd4d94 l.1164 with l.889-918 (reqRepoReader(actions) only for …/actions/runs and …/jobs, #36818)',
    expected: (f) =>
      on(f, NEED_UNIT)
        ? { put: 404, message: "The target couldn't be found.", variables: 404, runnerToken: [200, 404] }
        : { put: 201, message: undefined, variables: on(f, VARIABLES) ? 200 : 404 },
    async observe(h, f) {
      const put = await h.call<{ message?: string }>('PUT', 'repos/acme/no-actions/actions/secrets/UNIT_OFF', { body: { data: 'x' } });
      const seen = { put: put.status, message: put.status === 404 ? put.json?.message : undefined, variables: await status(h, 'GET', 'repos/acme/no-actions/actions/variables') };
      // The runner registration token's route and method differ by release; Forgejo 15's GET (api.go l.857) is in the same group.
      if (!on(f, NEED_UNIT)) return seen;
      return { ...seen, runnerToken: [await status(h, 'GET', 'repos/acme/app/actions/runners/registration-token'), await status(h, 'GET', 'repos/acme/no-actions/actions/runners/registration-token')] };
    },
  },
  {
    id: "an organisation's secret list exists in every release",
    cite: 'routers/api/v1/api.go: Gitea v1.21.11 l.1424-1428, Forgejo v7.0.16 l.1389-1393 (org/secrets.go ListActionsSecrets), v15.0.3 l.837-841',
    expected: () => 200,
    observe: (h) => status(h, 'GET', 'orgs/acme/actions/secrets'),
  },
  {
    id: 'the variable routes exist from Gitea 1.22 and Forgejo 8',
    cite: 'routers/api/v1/api.go: none in Gitea v1.21.11 nor Forgejo v7.0.16; Gitea v1.22.6 l.893-899, Forgejo v11.0.15 l.818-824 (#29520, Forgejo 16696a42f5 after v7 branched)',
    expected: (f) => (on(f, VARIABLES) ? [200, 200] : [404, 404]),
    async observe(h) {
      return [await status(h, 'GET', 'repos/acme/app/actions/variables'), await status(h, 'GET', 'orgs/acme/actions/variables')];
    },
  },
  {
    id: 'PUT of a secret answers 201 when it creates it and 204 when it replaces it; the name is stored upper-cased and found in any case',
    cite: 'repo CreateOrUpdateSecret: Gitea v1.21.11 l.70-77, v1.24.7 l.152-156; services/secrets/secrets.go l.13-40 (FindSecrets by name, Insert or Update); msecret ToUpper: v1.21.11 l.56 (insert), l.96 (find), v1.24.7 l.90, l.124; Forgejo v15.0.3 l.81, l.122',
    expected: () => ({ statuses: [201, 204], names: ['MIXED_CASE'] }),
    async observe(h) {
      await h.call('POST', 'orgs', { body: { username: `sec${++seq}` } });
      const org = `sec${seq}`;
      const statuses = [await status(h, 'PUT', `orgs/${org}/actions/secrets/Mixed_Case`, { data: 'one' }), await status(h, 'PUT', `orgs/${org}/actions/secrets/MIXED_case`, { data: 'two' })];
      const names = (await h.call<{ name: string }[]>('GET', `orgs/${org}/actions/secrets`)).json.map((s) => s.name);
      return { statuses, names };
    },
  },
  {
    id: "a secret put through a repository's route is found by its organisation's list and PUT on Gitea 1.21 and Forgejo 7 (owner-only lookups)",
    cite: 'repo CreateOrUpdateSecret passes owner.ID and repo.ID: Gitea v1.21.11 l.61, Forgejo v7.0.16 l.61 (0 and repo.ID from v1.22.6 l.123); msecret FindSecretsOptions.toConds matches owner_id alone when RepoID is 0: v1.21.11 and v1.22.6 l.84-100, Forgejo v7.0.16 l.84-100; repo_id = 0 asked from v1.23.8 l.95-114, Forgejo v9.0.0 l.95-113 (owner-only still in v8.0.0 l.84-100, its repo CreateOrUpdateSecret passing owner.ID l.125), v11.0.15 l.95-114',
    expected: (f) => (on(f, { gitea: { until: '1.21' }, forgejo: { until: 8 } }) ? { listed: true, orgPut: 204 } : { listed: false, orgPut: 201 }),
    async observe(h) {
      const name = fresh('REPO_ONLY');
      await h.call('PUT', `repos/acme/app/actions/secrets/${name}`, { body: { data: 'repo' } });
      const listed = (await h.call<{ name: string }[]>('GET', 'orgs/acme/actions/secrets?limit=50')).json.some((s) => s.name === name);
      return { listed, orgPut: await status(h, 'PUT', `orgs/acme/actions/secrets/${name}`, { data: 'org' }) };
    },
  },
  {
    id: 'a secret is listed with its name and creation time (and description from Gitea 1.24), never its value',
    cite: 'repo ListActionsSecrets: Gitea v1.22.6 l.68-74 (Name, Created), v1.24.7 l.84-90 (Description); modules/structs/secret.go (no data key in Secret); Forgejo v15.0.3 repo l.72-78',
    expected: (f) => (on(f, DESCRIPTIONS) ? ['created_at', 'description', 'name'] : ['created_at', 'name']),
    async observe(h) {
      await h.call('PUT', 'orgs/acme/actions/secrets/LISTED', { body: { data: 'never-answered' } });
      const one = (await h.call<Record<string, unknown>[]>('GET', 'orgs/acme/actions/secrets')).json.find((s) => s.name === 'LISTED') ?? {};
      return Object.keys(one).sort();
    },
  },
  {
    id: 'a secret PUT without a description clears the one it had (Gitea 1.24+: UpdateSecret writes both columns)',
    cite: 'msecret UpdateSecret: Gitea v1.24.7 l.131-147 (Cols("data", "description")); org CreateOrUpdateSecret l.110 passes opt.Description ("" when absent)',
    expected: (f) => (on(f, DESCRIPTIONS) ? ['kept', ''] : [undefined, undefined]),
    async observe(h) {
      const name = fresh('DESC');
      const read = async () => (await h.call<{ name: string; description?: string }[]>('GET', 'orgs/acme/actions/secrets?limit=50')).json.find((s) => s.name === name)?.description;
      await h.call('PUT', `orgs/acme/actions/secrets/${name}`, { body: { data: 'a', description: 'kept' } });
      const first = await read();
      await h.call('PUT', `orgs/acme/actions/secrets/${name}`, { body: { data: 'b' } });
      return [first, await read()];
    },
  },
  {
    id: 'names: letters, digits and _ not starting with a digit; GITEA_ and GITHUB_ refused everywhere (400)',
    cite: 'valid ValidateName: Gitea v1.21.11 l.14-15, v1.25.4 l.20-21; Forgejo v15.0.3 msecret l.22-23; repo CreateOrUpdateSecret maps ErrInvalidArgument to 400 (v1.21.11 l.59-61)',
    expected: (f) => ({ digit: 400, dash: 400, gitea: 400, github: 400, message: on(f, { gitea: { since: '1.25' } }) ? 'invalid variable or secret name' : 'invalid secret name' }),
    async observe(h) {
      const put = (n: string) => status(h, 'PUT', `orgs/acme/actions/secrets/${n}`, { data: 'x' });
      const [, msg] = await message(h, 'PUT', 'orgs/acme/actions/secrets/1ABC', { data: 'x' });
      return { digit: await put('9LIVES'), dash: await put('A-B'), gitea: await put('gitea_token'), github: await put('GITHUB_X'), message: msg };
    },
  },
  {
    id: 'FORGEJO_ names are refused by Forgejo 15 only; the name CI by Gitea 1.25+ only (secrets)',
    cite: 'Forgejo v15.0.3 msecret l.23 `(?i)^(FORGEJO_|GITEA_|GITHUB_|[0-9])`, v11.0.15 valid l.15 (GIT(EA|HUB)_ only); Gitea v1.25.4 valid l.29 `strings.EqualFold(name, "CI")`, v1.24.7 valid l.20-25 (no CI check)',
    expected: (f) => ({ forgejo: on(f, { forgejo: { since: 15 } }) ? 400 : 201, ci: on(f, { gitea: { since: '1.25' } }) ? 400 : 201 }),
    async observe(h) {
      await h.call('POST', 'orgs', { body: { username: `names${++seq}` } });
      const org = `names${seq}`;
      return { forgejo: await status(h, 'PUT', `orgs/${org}/actions/secrets/FORGEJO_TOKEN`, { data: 'x' }), ci: await status(h, 'PUT', `orgs/${org}/actions/secrets/CI`, { data: 'x' }) };
    },
  },
  {
    id: 'a secret and a variable need a value (binding Required: 422)',
    cite: 'modules/structs/secret.go CreateOrUpdateSecretOption.Data `binding:"Required"` (Gitea v1.21.11 l.23, v1.24.7 l.25); variable.go CreateVariableOption.Value l.12',
    expected: (f) => ({ secret: 422, variable: on(f, VARIABLES) ? 422 : 404 }),
    async observe(h) {
      return { secret: await status(h, 'PUT', `orgs/acme/actions/secrets/${fresh('EMPTY')}`, { data: '' }), variable: await status(h, 'POST', `orgs/acme/actions/variables/${fresh('EMPTY')}`, { value: '' }) };
    },
  },
  {
    id: 'DELETE of a secret the scope lacks: 404',
    cite: 'services/secrets/secrets.go DeleteSecretByName: `len(s) != 1` → ErrSecretNotFound (Gitea v1.21.11 l.71-73, v1.25.4 l.67-69); repo DeleteSecret maps ErrNotExist to 404 (v1.21.11 l.117-118)',
    expected: () => 404,
    observe: (h) => status(h, 'DELETE', 'orgs/acme/actions/secrets/NEVER_THERE'),
  },
  {
    id: 'POST of a variable answers 204 (201 from Gitea 1.25); the same name again, in any case, is 409',
    cite: 'repo CreateVariable: Gitea v1.22.6 l.336-347 (GetVariable, 409 VariableNameAlreadyExists) and l.358 (204), v1.24.7 l.376 (204), v1.25.4 l.376 (201); Forgejo v15.0.3 l.344, l.357 (204)',
    expected: (f) => (on(f, VARIABLES) ? [created(f), 409] : [404, 404]),
    async observe(h) {
      const name = fresh('NEWVAR');
      return [await status(h, 'POST', `repos/acme/app/actions/variables/${name}`, { value: 'v' }), await status(h, 'POST', `repos/acme/app/actions/variables/${name.toLowerCase()}`, { value: 'w' })];
    },
  },
  {
    id: 'a variable value is stored with CRLF as LF, spaces kept',
    cite: 'vars CreateVariable ReserveLineBreakForTextarea(data): Gitea v1.22.6 l.26, v1.24.7 l.25, Forgejo v15.0.3 l.26; modules/util/util.go ReserveLineBreakForTextarea (Gitea v1.22.6 l.233-240: strings.ReplaceAll(input, "\\r\\n", "\\n"))',
    expected: (f) => (on(f, VARIABLES) ? ' two\nlines ' : 404),
    async observe(h) {
      const name = fresh('CRLF');
      const r = await h.call('POST', `orgs/acme/actions/variables/${name}`, { body: { value: ' two\r\nlines ' } });
      if (r.status === 404) return 404;
      return (await h.call<{ data: string }>('GET', `orgs/acme/actions/variables/${name}`)).json.data;
    },
  },
  {
    id: "a repository's variable list answers no values on Gitea 1.22–1.23 and Forgejo 8–13; the organisation's list always does",
    cite: 'repo ListVariables: Gitea v1.22.6 l.473-477, v1.23.8 l.478-482, Forgejo v11.0.15 l.474-478 (OwnerID, RepoID, Name only); v1.24.7 l.496-502, Forgejo v14.0.0 l.471-476, v15.0.3 l.472-477 (Data too; none in Forgejo v8.0.0 l.476-480 … v13.0.0 l.471-475); org ListVariables: v1.22.6 l.232-237, Forgejo v11.0.15 l.257-262 (Data)',
    expected: (f) => (on(f, VARIABLES) ? { repo: on(f, REPO_LIST_WITHOUT_DATA) ? '' : 'repo value', org: 'org value' } : 404),
    async observe(h) {
      const repo = await h.call<{ name: string; data: string }[]>('GET', 'repos/acme/app/actions/variables');
      if (repo.status === 404) return 404;
      const org = await h.call<{ name: string; data: string }[]>('GET', 'orgs/acme/actions/variables');
      return { repo: repo.json.find((v) => v.name === 'REPO_VAR')?.data, org: org.json.find((v) => v.name === 'ORG_VAR')?.data };
    },
  },
  {
    id: 'variable names starting with CI are refused up to Gitea 1.24 and Forgejo 12; Forgejo 13+ and Gitea 1.25+ refuse CI only',
    cite: 'vars envNameCIRegexMatch `(?i)^CI`: Gitea v1.22.6 l.91, v1.24.7 l.88, Forgejo v8.0.0 l.91, v11.0.15 l.90, v12.0.0 l.90; `(?i)^CI$`: Forgejo v13.0.0 l.90, v15.0.3 l.83; Gitea v1.25.4 has no envNameCIRegexMatch, valid l.29 EqualFold(name, "CI")',
    expected: (f) => {
      if (!on(f, VARIABLES)) return 404;
      const prefix = on(f, { gitea: { until: '1.24' }, forgejo: { until: 12 } });
      return { circle: prefix ? 400 : created(f), ci: 400, message: prefix ? 'env name cannot be ci' : created(f) };
    },
    async observe(h, f) {
      const circle = await message(h, 'POST', `orgs/acme/actions/variables/CIRCLE_${++seq}`, { value: 'x' });
      if (circle[0] === 404) return 404;
      return { circle: circle[0], ci: await status(h, 'POST', 'orgs/acme/actions/variables/CI', { value: 'x' }), message: circle[0] === 400 ? circle[1] : created(f) };
    },
  },
  {
    id: 'a variable PUT sets value and description: without a description it clears it (Gitea 1.24+); an empty name keeps the path name',
    cite: 'repo UpdateVariable: Gitea v1.24.7 l.431-437 (`if opt.Name == ""`, v.Data = opt.Value, v.Description = opt.Description), vars UpdateVariableNameData Cols("name", "data", "description") l.44; Gitea v1.22.6 l.413-416, Forgejo v15.0.3 org l.599-602 (no description)',
    expected: (f) => (on(f, VARIABLES) ? { status: 204, data: 'new', description: on(f, DESCRIPTIONS) ? ['set', ''] : [undefined, undefined] } : 404),
    async observe(h) {
      const name = fresh('EDIT');
      const r = await h.call('POST', `orgs/acme/actions/variables/${name}`, { body: { value: 'old', description: 'set' } });
      if (r.status === 404) return 404;
      const first = (await h.call<{ description?: string }>('GET', `orgs/acme/actions/variables/${name}`)).json.description;
      const put = await status(h, 'PUT', `orgs/acme/actions/variables/${name}`, { value: 'new' });
      const after = (await h.call<{ data: string; description?: string }>('GET', `orgs/acme/actions/variables/${name}`)).json;
      return { status: put, data: after.data, description: [first, after.description] };
    },
  },
  {
    id: 'DELETE of a variable with a refused name: 400 where delete checks the name (Gitea ≤ 1.24, Forgejo ≤ 14), else 404',
    cite: 'vars DeleteVariableByName: ValidateName and envNameCIRegexMatch first in Gitea v1.22.6 l.54-61, Forgejo v11.0.15 l.52-59; still in Forgejo v14.0.0 l.52-59; none in Gitea v1.25.4 l.41-50 nor Forgejo v15.0.3 l.52-63 (GetVariable → 404 "variable not found")',
    expected: (f) => (on(f, VARIABLES) ? (on(f, { gitea: { until: '1.24' }, forgejo: { until: 14 } }) ? 400 : 404) : 404),
    observe: (h) => status(h, 'DELETE', 'orgs/acme/actions/variables/1BAD'),
  },
];

checkFacts('%s: Actions secrets and variables conform to the source', SEED, FACTS, { reset: () => (seq = 0) });
