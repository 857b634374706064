import { readFileSync } from 'node:fs';
import { planShapeProblems } from '../apply/plan-shape.js';
import { kinds } from '../kinds/index.js';
import { formatDiagnostic } from '../model/index.js';
import type { Plan } from '../plan/types.js';
import { UserError } from './output.js';

/**
 * A saved plan file, read and checked for the shape a plan has (schemas/plan.schema.json and each kind's fields): input
 * from outside like any config. Its secrets are still references (`{"$env": "${NAME}"}`): apply resolves them, show
 * never needs to.
 */
export function readSavedPlan(path: string, refusal = 'apply'): Plan {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new UserError(`cannot read plan file ${path}: ${(e as Error).message}`);
  }
  const problems = planShapeProblems(raw, kinds);
  if (problems.length) {
    const shown = problems.slice(0, 10).map((p) => `  ${formatDiagnostic(p)}`);
    if (problems.length > 10) shown.push(`  … and ${problems.length - 10} more`);
    throw new UserError(`${path} is not a plan this forgeform can ${refusal}; nothing was changed:\n${shown.join('\n')}\nMake the plan again with forgeform plan --out.`);
  }
  return raw as Plan;
}
