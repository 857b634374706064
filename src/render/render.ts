import type { Plan } from '../model/index.js';
import type { Colors } from './color.js';
import type { PlanFormat } from './formats.js';
import { renderPlanMarkdown } from './markdown.js';
import { renderRehearsalText } from './rehearsal.js';
import { renderPlanText, type KindTitle } from './text.js';

/** What a renderer needs besides the plan: the colours of the stream it goes to (none off a terminal) and the kinds' titles. */
export interface RenderOptions {
  colors: Colors;
  kindTitle: KindTitle;
}

/** One renderer per format of PLAN_FORMATS: a format added there without one here does not compile. */
const RENDERERS: Record<PlanFormat, (plan: Plan, o: RenderOptions) => string> = {
  text: (plan, o) => renderPlanText(plan, o.colors, o.kindTitle) + (plan.rehearsal ? renderRehearsalText(plan.rehearsal, o.colors) : ''),
  markdown: (plan, o) => renderPlanMarkdown(plan, o.kindTitle),
  // The plan file's own shape, with `rehearsal` when plan --rehearse made one (never in a plan file); a secret's value prints as (sensitive).
  json: (plan) => JSON.stringify(plan, null, 2),
};

export function renderPlan(plan: Plan, format: PlanFormat, o: RenderOptions): string {
  return RENDERERS[format](plan, o);
}
