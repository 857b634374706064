import { inEither, inForgejo, inGitea } from '../fields.js';
import { defineKind, type CurrentObject } from '../../model/index.js';
import { writing } from './ops.js';
import { planning, safety } from './plan.js';
import { features, reading, runState, type RunnerTypes } from './read.js';

/**
 * The releases of the admin runner routes (GET list, GET/DELETE one): Gitea 1.24 (#33873), Forgejo 15
 * (#10573). Older ones have only the registration token, so nothing to read or delete.
 */
const RUNNER_ROUTES = inEither(inGitea('1.24'), inForgejo('15'));

/**
 * The server's own (global) Actions runners, by name: forgeform manages their disabled flag, and deletes
 * undeclared ones with runners in policy.prune. A repository's, organisation's or user's runner is never
 * one of them, whatever its name (read.ts). It cannot register runners. Online status is reported, never compared.
 * read.ts reads them, plan.ts checks them, ops.ts writes them.
 */
export const runnerKind = defineKind<RunnerTypes['config'], RunnerTypes['server'], RunnerTypes['prepared'], RunnerTypes['run']>({
  name: 'runner',
  title: 'runner',
  pruneKey: 'runners',
  configKey: 'runners',
  scopeType: 'server',
  actions: ['update', 'delete'],
  availability: RUNNER_ROUTES,
  features,
  declaredAt: ['actions', 'runners', '*'],
  target: { type: 'runner', placeholder: 'NAME' },
  runState,
  ...reading,
  ...planning,
  ...safety,
  ...writing,

  exportInto(config, objects) {
    const { actions } = config;
    config.actions = { ...(typeof actions === 'object' && actions !== null ? actions : {}), runners: objects };
  },
  toConfig(current: CurrentObject) {
    return { disabled: current.fields.disabled };
  },
});
