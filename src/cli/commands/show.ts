import { inert } from '../../render/inert.js';
import type { PlanFormat } from '../../render/formats.js';
import { readValues, resolvePlanSecrets, serializePlan } from '../../plan/planfile.js';
import { EXIT, type Output } from '../output.js';
import { readSavedPlan } from '../saved-plan.js';
import { printPlan } from './plan.js';

export interface ShowCommandOptions {
  format?: PlanFormat;
}

/**
 * A saved plan as plan printed it, in any format, without a server or a credential: for a reviewer, an audit, or a
 * pipeline's later step. JSON is the plan file's own shape (secrets stay references). What it shows is what the file
 * says: apply still checks every change against the server before it writes.
 */
export function showCommand(planFile: string, opts: ShowCommandOptions, out: Output): number {
  const plan = readSavedPlan(planFile, 'show');
  // A value the config read from the environment is masked as plan masked it, where the variable is set here (show
  // needs none: a value whose variable is not set is shown as the file holds it, which anyone who reads the file sees).
  out.addSecrets(readValues(plan, out.env).values);
  if (opts.format === 'json') out.stdout(serializePlan(plan).trimEnd());
  // Secrets are shown as plan showed them, with the variable each comes from; no value is read (no environment).
  else printPlan(resolvePlanSecrets(plan, {}).plan, opts.format, out);
  out.stderr(inert(`Saved plan ${planFile}, made ${plan.created_at} by forgeform ${plan.forgeform_version}: shown as saved, without asking the server (apply checks every change against it first).`));
  return EXIT.ok;
}
