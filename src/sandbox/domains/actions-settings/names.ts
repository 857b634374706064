/**
 * Names of secrets and variables as each release checks them (`services/secrets/validation.go`
 * ValidateName; Forgejo 15 `models/secret/secret.go`; variables also `envNameCIRegexMatch` of
 * `services/actions/variables.go`). NOTES.md "Actions secrets and variables" cites each line.
 */
import type { Flavour } from '../../flavours/flavour.js';
import { hasQuirk } from '../../flavours/releases.js';

/** The error text of an invalid name: `util.NewInvalidArgumentErrorf(…)`. */
export function invalidNameMessage(flavour: Flavour): string {
  return hasQuirk(flavour, 'actionsNameCIRefused') ? 'invalid variable or secret name' : 'invalid secret name';
}

/** `ValidateName`: letters, digits and `_`, not starting with a digit; no GITEA_/GITHUB_ (nor FORGEJO_ on Forgejo 15, nor CI on Gitea 1.25+). */
export function validName(flavour: Flavour, name: string): boolean {
  if (!/^[A-Z_][A-Z0-9_]*$/i.test(name) || /^GIT(EA|HUB)_/i.test(name)) return false;
  if (hasQuirk(flavour, 'actionsNameForgejoPrefixRefused') && /^FORGEJO_/i.test(name)) return false;
  if (hasQuirk(flavour, 'actionsNameCIRefused') && name.toUpperCase() === 'CI') return false;
  return true;
}

/** `envNameCIRegexMatch` (variables only): `(?i)^CI` before, `(?i)^CI$` on Forgejo 15, none on Gitea 1.25+ (ValidateName has it). */
export function variableNameCI(flavour: Flavour, name: string): boolean {
  if (hasQuirk(flavour, 'variableNameCIPrefixRefused')) return /^CI/i.test(name);
  if (hasQuirk(flavour, 'variableNameCIRefused')) return /^CI$/i.test(name);
  return false;
}
