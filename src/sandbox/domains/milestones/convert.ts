/** API `Milestone` objects. */
import type { ConvertContext } from '../../core/convert.js';
import type { MilestoneRecord } from './records.js';

/** `convert.ToAPIMilestone`. */
export function toMilestone(cx: ConvertContext, m: MilestoneRecord): Record<string, unknown> {
  const issues = cx.state.data.issues.filter((i) => i.milestoneId === m.id);
  return {
    id: m.id,
    title: m.title,
    description: m.description,
    state: m.state,
    open_issues: issues.filter((i) => i.state === 'open').length,
    closed_issues: issues.filter((i) => i.state === 'closed').length,
    created_at: m.createdAt,
    updated_at: m.updatedAt,
    closed_at: m.closedAt,
    due_on: m.dueOn,
  };
}
