// A repository's Actions unit, as the Actions secret and variable kinds meet it. Forgejo 15 registers a
// repository's Actions routes with `reqOwner(unit.TypeActions)` (v15.0.3 routers/api/v1/api.go l.1145–1149,
// l.428–441; #10726): while the repository's Actions unit is off, every one of them answers 404 "The target
// couldn't be found.", to a site administrator too. Gitea (1.26 included: the unit check there guards only
// …/actions/runs and …/jobs) and Forgejo ≤ 14 serve them whatever the unit. src/sandbox/NOTES.md cites the sources.
//
// Rather than a release table, what the server answers decides: a 404 from a repository's list while the
// repository (the GET the scope resolution made) says `has_actions: false` is that check. The repository is
// then read as having no secrets or variables, each one declared there is a plan error naming the repository
// and the answer, unless the same plan turns `has_actions` on: its changes then wait for that change.
import { isApiError } from '../gitea/errors.js';
import { apiPath } from '../gitea/path.js';
import { describeServer, serverHas, type Availability, type KindContext, type KindTypes, type Problem, type RequestScope, type Scope, type ScopeContext, type Writing } from '../model/index.js';
import { repoSettingsKind } from './repo_settings/index.js';

/**
 * Releases that serve no Actions route of a repository whose Actions unit is off (Forgejo v15.0.3 api.go l.1145–1149):
 * only for a plan that turns the unit off, where nothing has answered yet.
 */
const ROUTES_NEED_UNIT: Availability = { forgejo: { since: '15' } };

/** Per run, the repositories whose Actions list answered 404 with the unit off: the answer, by repository. */
export type UnitOffRun = Map<string, string>;

/** A fresh per-run state of an Actions kind. */
export const unitOffRun = (): UnitOffRun => new Map();

/** What prepare finds for a repository whose Actions unit is off: the server's answer and the change of this plan that turns the unit on. */
export interface UnitOff {
  answer: string;
  enabledBy?: string;
}

async function unitIsOff(scope: RequestScope, ctx: ScopeContext): Promise<boolean> {
  const repo = await ctx.cachedGet<{ has_actions?: boolean }>(apiPath(...scope.segments), { object: `repository ${scope.name}`, shape: { has_actions: 'boolean?' } });
  return repo.has_actions === false;
}

/** A scope's list, or none where the repository's Actions unit is off and the server refuses its Actions routes (remembered in `run`). */
export async function listUnlessUnitOff<T>(scope: RequestScope, ctx: ScopeContext, run: UnitOffRun, list: () => Promise<T[]>): Promise<T[]> {
  try {
    return await list();
  } catch (e) {
    if (scope.type !== 'repo' || !isApiError(e, 404) || !(await unitIsOff(scope, ctx))) throw e;
    run.set(scope.name, e.message);
    return [];
  }
}

/**
 * The repository's unit off as read, and the change of this plan (or of the saved plan being applied) whose
 * repository settings turn `has_actions` on; undefined where the list was read. The Actions kinds list
 * repo_settings in `after`, so its changes are planned first.
 */
export function unitOffOf(scope: Scope, ctx: ScopeContext, run: UnitOffRun): UnitOff | undefined {
  const answer = run.get(scope.name);
  if (answer === undefined) return undefined;
  const enabledBy = ctx.planned(repoSettingsKind, scope)?.find((o) => o.fields.has_actions === true && o.changedBy !== undefined)?.changedBy;
  return { answer, ...(enabledBy ? { enabledBy } : {}) };
}

/**
 * What the Actions kinds' writing shares: prepare finds the repository's unit off (and the change turning it
 * on), and the writes wait for that repository settings change.
 */
export const unitWriting = {
  /** Where the repository's Actions unit was found off: the change of this plan that turns it on, if any. */
  async prepare({ scope, ctx, run }) {
    return unitOffOf(scope, ctx, run);
  },

  /** The writes wait for the repository settings change that turns the Actions unit on. */
  dependsOn({ prepared }) {
    return prepared?.enabledBy ? [prepared.enabledBy] : [];
  },
} satisfies Pick<Writing<KindTypes<unknown, unknown, UnitOff | undefined, UnitOffRun>>, 'prepare' | 'dependsOn'>;

/** Why a declared secret or variable cannot be planned: the repository's Actions unit stays off. */
export function unitOffProblem(what: 'secret' | 'variable', path: Problem['path'], scope: Scope, ctx: KindContext, off: UnitOff | undefined): Problem[] {
  if (!off || off.enabledBy) return [];
  const server = ctx.server ? describeServer(ctx.server) : 'the server';
  return [
    {
      path,
      message: `repository ${scope.name} has its Actions unit disabled (has_actions: false), and ${server} serves none of its Actions routes then (${off.answer}): set has_actions: true in repos."${scope.name}".settings (or enable Actions in the repository's settings), or remove its ${what}s from the config`,
    },
  ];
}

/**
 * A declared secret or variable of a repository whose settings this plan turns `has_actions` off, on a release that
 * then serves none of its Actions routes: its write would race the settings change, and the next plan could not read it.
 */
export function unitTurnedOffProblem(what: 'secret' | 'variable', path: Problem['path'], scope: Scope, ctx: KindContext): Problem[] {
  if (scope.type !== 'repo' || !ctx.server || !serverHas(ctx.server, ROUTES_NEED_UNIT)) return [];
  if (!ctx.planned(repoSettingsKind, scope)?.some((o) => o.fields.has_actions === false && o.changedBy !== undefined)) return [];
  return [
    {
      path,
      message: `repository ${scope.name}: its settings turn has_actions off in this plan, and ${describeServer(ctx.server)} serves none of a repository's Actions routes without the unit (404): its ${what}s could be neither written nor read then. Keep has_actions: true, or remove its ${what}s from the config`,
    },
  ];
}

/** A warning where nothing is declared but the section is managed (a prune): nothing could be read. */
export function unitOffNotice(what: 'secret' | 'variable', scope: Scope, off: UnitOff | undefined): string[] {
  if (!off || off.enabledBy) return [];
  return [`Actions ${what}s of repository ${scope.name} were not read: its Actions unit is disabled (${off.answer})`];
}
