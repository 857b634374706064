import type { RunnerConfig } from '../../config/types.js';
import { normalizeFields } from '../fields.js';
import { type DesiredObject, type Planning, type Safety } from '../../model/index.js';
import { fields, status, type RunnerTypes } from './read.js';

export const planning = {
  async desired({ entry }) {
    const runners = entry?.actions?.runners;
    if (!runners) return undefined;
    const objects: DesiredObject[] = Object.entries<RunnerConfig>(runners).map(([name, r]) => ({
      key: name,
      fields: normalizeFields(fields, { ...r }, true),
      path: ['actions', 'runners', name],
    }));
    return { objects, problems: [] };
  },

  check({ desired, current, run }) {
    if (current) return [];
    // Only a repository's, an organisation's or a user's runner has the name: someone else's, never the declared one.
    const elsewhere = (run.scoped ?? []).filter((r) => r.name === desired.key).map((r) => r.where);
    if (elsewhere.length) {
      const where = [...new Set(elsewhere)].join(', ');
      return [{ path: desired.path, message: `runner "${desired.key}" is not a global runner of the server: only ${where} has a runner of that name (actions.runners declares the server's own runners; forgeform never matches, changes, deletes or exports another scope's runner)` }];
    }
    return [{ path: desired.path, message: `runner "${desired.key}" is not registered on the server (forgeform cannot register runners: declare registered runners only)` }];
  },

  notices({ desired, current }) {
    const declared = new Set(desired.map((d) => d.key));
    return current.filter((c) => declared.has(c.key) && c.fields.status !== 'online').map((c) => `runner "${c.key}" is ${status(c)}`);
  },

} satisfies Planning<RunnerTypes>;

export const safety = {
  async annotate({ change, intent: { copy }, scope, ctx, self }) {
    if (change.action !== 'delete') return undefined;
    const current = (await ctx.currentOf(self, scope)).find((c) => c.key === change.key && (copy === undefined || copy === String(c.id)));
    return current ? { notes: [`the runner is ${status(current)}`] } : undefined;
  },
} satisfies Safety<RunnerTypes>;
