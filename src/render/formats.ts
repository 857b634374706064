/**
 * The formats a plan is rendered in, by name: the one list that the CLI's `--format` choices, the Action's `format`
 * input and the renderers (src/render/render.ts, one per name, checked by the compiler) are made from. Kept apart from
 * the renderers so that the CLI can offer the choices without loading them. `text` is in colour on a terminal.
 */
export const PLAN_FORMATS = ['text', 'markdown', 'json'] as const;

export type PlanFormat = (typeof PLAN_FORMATS)[number];
