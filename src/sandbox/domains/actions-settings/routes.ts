/**
 * Actions secrets and variables of organisations and repositories (`routers/api/v1/{repo,org}/action.go`,
 * `services/secrets`, `services/actions/variables.go`, `models/secret`, `models/actions/variable.go`).
 * Which release serves which route is its swagger table (Gitea 1.21 and Forgejo 7: secrets only, and
 * no repository secret list); what differs is QUIRKS data (releases.ts). NOTES.md "Actions secrets and
 * variables" and test/conformance/actions-settings.test.ts cite the sources.
 */
import { reqToken, scope } from '../../http/auth.js';
import { bind, formOf, orgAssignment, repoAssignment, reqOrgOwnership } from '../../http/checks.js';
import { type ApiContext, inOrg, inRepo, type Step } from '../../http/context.js';
import { listOptions, paginate, setTotalCountHeader } from '../../http/paging.js';
import { apiError, empty, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { nowIso } from '../../core/state.js';
import { hasQuirk, shapeAnswer } from '../../flavours/releases.js';
import { reqRepoActionsOwner } from '../actions/routes.js';
import { invalidNameMessage, validName, variableNameCI } from './names.js';
import { CreateOrUpdateSecretOption, CreateVariableOption, UpdateVariableOption } from './options.js';
import { inScope, type ActionSecretRecord, type ActionsScope, type ActionVariableRecord } from './records.js';

/** `util.TruncateRunes(s, 4096)`: descriptions are cut, not refused. */
const truncateRunes = (s: string, n: number): string => [...s].slice(0, n).join('');
const DESCRIPTION_MAX = 4096;
const DATA_MAX = 65536;
/** `util.ReserveLineBreakForTextarea`: CRLF → LF, nothing else touched. */
const lineBreaks = (s: string): string => s.replaceAll('\r\n', '\n');

type ScopeOf = (ctx: ApiContext) => ActionsScope;

/** `FindSecretsOptions`: the scope exactly, or (QUIRKS.secretOwnerOnlyLookup) each id that is set, alone. */
function secretsOf(ctx: ApiContext, s: ActionsScope): ActionSecretRecord[] {
  if (!hasQuirk(ctx.flavour, 'secretOwnerOnlyLookup')) return ctx.state.data.actionSecrets.filter(inScope(s));
  return ctx.state.data.actionSecrets.filter((r) => (s.ownerId === 0 || r.ownerId === s.ownerId) && (s.repoId === 0 || r.repoId === s.repoId));
}
function variablesOf(ctx: ApiContext, s: ActionsScope): ActionVariableRecord[] {
  return ctx.state.data.actionVariables.filter(inScope(s));
}
/** `FindSecretsOptions` / `FindVariablesOpts` with a name: compared upper-cased. */
const named = (name: string) => (r: { name: string }): boolean => r.name === name.toUpperCase();

function listSecrets(ctx: ApiContext, s: ActionsScope): Response {
  const opts = listOptions(ctx);
  const all = secretsOf(ctx, s);
  setTotalCountHeader(ctx, all.length);
  return json(200, paginate(all, opts).map((r) => shapeAnswer(ctx.flavour, 'Secret', { name: r.name, description: r.description, created_at: r.createdAt })));
}

/** `CreateOrUpdateSecret`: 201 when created, 204 when updated (its description is replaced, '' when not sent). */
function putSecret(ctx: ApiContext, s: ActionsScope): Response {
  const form = formOf(ctx, CreateOrUpdateSecretOption);
  const name = ctx.params.secretname ?? '';
  if (!validName(ctx.flavour, name)) return apiError(ctx.root, 400, invalidNameMessage(ctx.flavour));
  if (hasQuirk(ctx.flavour, 'actionsDataMaxLength') && Buffer.byteLength(form.data) > DATA_MAX) return apiError(ctx.root, 400, 'data too long');
  const description = truncateRunes(form.description ?? '', DESCRIPTION_MAX);
  const found = secretsOf(ctx, s).find(named(name));
  if (found) {
    found.data = form.data;
    found.description = description;
    return empty(204);
  }
  ctx.state.data.actionSecrets.push({ id: ctx.state.nextId('actionSecret'), ...s, name: name.toUpperCase(), data: form.data, description, createdAt: nowIso() });
  return empty(201);
}

function deleteSecret(ctx: ApiContext, s: ActionsScope): Response {
  const name = ctx.params.secretname ?? '';
  if (hasQuirk(ctx.flavour, 'actionsDeleteValidatesName') && !validName(ctx.flavour, name)) return apiError(ctx.root, 400, invalidNameMessage(ctx.flavour));
  const found = secretsOf(ctx, s).find(named(name));
  if (!found) return apiError(ctx.root, 404, 'secret was not found [name: ]');
  ctx.state.data.actionSecrets = ctx.state.data.actionSecrets.filter((r) => r !== found);
  return empty(204);
}

/** `api.ActionVariable`; the repository list leaves `data` empty on some releases (QUIRKS.repoVariableListWithoutData). */
function toVariable(ctx: ApiContext, r: ActionVariableRecord, withData = true): Record<string, unknown> {
  return shapeAnswer(ctx.flavour, 'ActionVariable', { owner_id: r.ownerId, repo_id: r.repoId, name: r.name, data: withData ? r.data : '', description: r.description });
}

function listVariables(ctx: ApiContext, s: ActionsScope): Response {
  const opts = listOptions(ctx);
  const all = variablesOf(ctx, s);
  const withData = !(s.repoId !== 0 && hasQuirk(ctx.flavour, 'repoVariableListWithoutData'));
  setTotalCountHeader(ctx, all.length);
  return json(200, paginate(all, opts).map((r) => toVariable(ctx, r, withData)));
}

/** The name and value checks of CreateVariable / UpdateVariableNameData, in their order; a Response when refused. */
function checkVariable(ctx: ApiContext, name: string, value: string): Response | undefined {
  if (!validName(ctx.flavour, name)) return apiError(ctx.root, 400, invalidNameMessage(ctx.flavour));
  if (variableNameCI(ctx.flavour, name)) return apiError(ctx.root, 400, 'env name cannot be ci');
  if (hasQuirk(ctx.flavour, 'actionsDataMaxLength') && [...value].length > DATA_MAX) return apiError(ctx.root, 400, 'data too long');
  return undefined;
}

/** `CreateVariable`: 409 for a name the scope has (checked first), then the name checks; 204 (201 on Gitea 1.25+). */
function createVariable(ctx: ApiContext, s: ActionsScope): Response {
  const form = formOf(ctx, CreateVariableOption);
  const name = ctx.params.variablename ?? '';
  if (variablesOf(ctx, s).some(named(name))) return apiError(ctx.root, 409, `variable name ${name} already exists`);
  const refused = checkVariable(ctx, name, form.value);
  if (refused) return refused;
  ctx.state.data.actionVariables.push({
    id: ctx.state.nextId('actionVariable'),
    ...s,
    name: name.toUpperCase(),
    data: lineBreaks(form.value),
    description: truncateRunes(form.description ?? '', DESCRIPTION_MAX),
    createdAt: nowIso(),
  });
  return empty(hasQuirk(ctx.flavour, 'variableCreateAnswers201') ? 201 : 204);
}

/** `UpdateVariable`: 404 when missing; `name` renames (empty: the path's), the description is replaced ('' when not sent). */
function updateVariable(ctx: ApiContext, s: ActionsScope): Response {
  const form = formOf(ctx, UpdateVariableOption);
  const found = variablesOf(ctx, s).find(named(ctx.params.variablename ?? ''));
  if (!found) return apiError(ctx.root, 404, 'variable not found');
  const name = form.name || (ctx.params.variablename ?? '');
  const refused = checkVariable(ctx, name, form.value);
  if (refused) return refused;
  // The unique index (owner_repo_name) refuses a rename onto another variable: a database error, 500.
  if (variablesOf(ctx, s).some((r) => r !== found && r.name === name.toUpperCase())) return apiError(ctx.root, 500, '');
  found.name = name.toUpperCase();
  found.data = lineBreaks(form.value);
  found.description = truncateRunes(form.description ?? '', DESCRIPTION_MAX);
  return empty(204);
}

function getVariable(ctx: ApiContext, s: ActionsScope): Response {
  const found = variablesOf(ctx, s).find(named(ctx.params.variablename ?? ''));
  return found ? json(200, toVariable(ctx, found)) : apiError(ctx.root, 404, 'variable not found');
}

function deleteVariable(ctx: ApiContext, s: ActionsScope): Response {
  const name = ctx.params.variablename ?? '';
  if (hasQuirk(ctx.flavour, 'actionsDeleteValidatesName')) {
    if (!validName(ctx.flavour, name)) return apiError(ctx.root, 400, invalidNameMessage(ctx.flavour));
    if (variableNameCI(ctx.flavour, name)) return apiError(ctx.root, 400, 'env name cannot be ci');
  }
  const found = variablesOf(ctx, s).find(named(name));
  if (!found) return apiError(ctx.root, 404, 'variable not found');
  ctx.state.data.actionVariables = ctx.state.data.actionVariables.filter((r) => r !== found);
  return empty(204);
}

/** The owner of a repository route's repository. */
const repoOwnerId = inRepo((ctx) => ctx.repo.ownerId);

/** One scope's routes under `base` (`/repos/:owner/:repo/actions` or `/orgs/:org/actions`), behind its checks. */
function registerScope(r: ApiRouter, base: string, steps: Step[], scopeOf: ScopeOf): void {
  const at = (handler: (ctx: ApiContext, s: ActionsScope) => Response) => (ctx: ApiContext) => handler(ctx, scopeOf(ctx));
  // A repository's secret routes pass its owner too where the release does (QUIRKS.repoSecretStoresOwner).
  const secretAt = (handler: (ctx: ApiContext, s: ActionsScope) => Response) => (ctx: ApiContext) => {
    const s = scopeOf(ctx);
    return handler(ctx, s.repoId !== 0 && hasQuirk(ctx.flavour, 'repoSecretStoresOwner') ? { ...s, ownerId: repoOwnerId(ctx) } : s);
  };
  r.on('GET', `${base}/secrets`, ...steps, at(listSecrets));
  r.on('PUT', `${base}/secrets/:secretname`, ...steps, bind(CreateOrUpdateSecretOption), secretAt(putSecret));
  r.on('DELETE', `${base}/secrets/:secretname`, ...steps, secretAt(deleteSecret));
  r.on('GET', `${base}/variables`, ...steps, at(listVariables));
  r.on('GET', `${base}/variables/:variablename`, ...steps, at(getVariable));
  r.on('POST', `${base}/variables/:variablename`, ...steps, bind(CreateVariableOption), at(createVariable));
  r.on('PUT', `${base}/variables/:variablename`, ...steps, bind(UpdateVariableOption), at(updateVariable));
  r.on('DELETE', `${base}/variables/:variablename`, ...steps, at(deleteVariable));
}

export function registerActionsSettingsRoutes(r: ApiRouter): void {
  // Repositories: reqOwner() (Gitea v1.24.7 routers/api/v1/api.go:1193), reqOwner(unit.TypeActions) on Forgejo 15;
  // organisations: reqOrgOwnership() (:1625).
  registerScope(r, '/repos/:owner/:repo/actions', [scope('repository'), repoAssignment, reqToken, reqRepoActionsOwner], inRepo((ctx) => ({ ownerId: 0, repoId: ctx.repo.id })));
  registerScope(r, '/orgs/:org/actions', [scope('organization'), orgAssignment, reqToken, reqOrgOwnership], inOrg((ctx) => ({ ownerId: ctx.org.id, repoId: 0 })));
}
