/** Seed key `repos[].milestones`, stored as `POST …/milestones` stores them (README.md). */
import type { NestedSeed } from '../../core/domain.js';
import { list, obj, oneOf, SeedError, str } from '../../core/seed-shape.js';
import type { RepoRecord } from '../../core/state.js';
import { createMilestone } from './service.js';

export interface SeedMilestone {
  title: string;
  description?: string;
  /** `open` (default) | `closed`. */
  state?: string;
  due_on?: string;
}

export const repoMilestonesSeed: NestedSeed<RepoRecord> = {
  keys: ['milestones'],
  phase: 'early',
  load: (cx, repo, o, p) => {
    list(o.milestones, `${p}.milestones`).forEach((ms, j) => {
      const mp = `${p}.milestones[${j}]`;
      const mo = obj(ms, mp, ['title', 'description', 'state', 'due_on']);
      const dueOn = str(mo.due_on, `${mp}.due_on`);
      if (dueOn !== undefined && Number.isNaN(Date.parse(dueOn))) throw new SeedError(`${mp}.due_on: not a date: ${JSON.stringify(dueOn)}`);
      createMilestone(cx.state, repo, {
        title: str(mo.title, `${mp}.title`, true)!,
        description: str(mo.description, `${mp}.description`),
        state: oneOf(mo.state, `${mp}.state`, ['open', 'closed'] as const),
        dueOn,
      });
    });
  },
};
