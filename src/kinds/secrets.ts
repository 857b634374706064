import { literalTemplate, Secret, UNMAPPED_SECRET } from '../secret.js';
import type { KindContext, Problem } from '../model/index.js';
import type { ConfigPath } from '../config/types.js';

/**
 * A sensitive field's value as a Secret: from here on no output can show it, and a saved plan stores
 * its ${NAME} template. It must come from an environment variable — a secret written in the config
 * itself is refused (it would sit in the repository) — but it is wrapped either way, so that even the
 * refused value is never printed.
 */
export function secretFromEnvironment(value: unknown, path: ConfigPath, field: string, ctx: KindContext): { secret?: Secret; problems: Problem[] } {
  if (typeof value !== 'string') return { problems: [] };
  const at = ctx.loaded.locate?.(path);
  const template = ctx.loaded.secretTemplates?.lookup(at, value);
  if (template !== undefined) {
    ctx.loaded.secretTemplates?.markSecret(at, template);
    return { secret: new Secret(value, template), problems: [] };
  }
  return {
    secret: new Secret(value, literalTemplate(value)),
    problems: [
      {
        path,
        message: value === UNMAPPED_SECRET ? unmapped(field) : `${field} is a secret and must come from an environment variable (${field}: "\${NAME}"), so that it is never written in the config nor saved in a plan file`,
      },
    ],
  };
}

/** The error of a placeholder export wrote (UNMAPPED_SECRET): the user says which of her variables holds the secret. */
function unmapped(field: string): string {
  return `${field} is a secret export could not read (the server never returns one): map it to the environment variable that holds it (${field}: "\${NAME}", a variable you set) before planning; export never names one for you, since the secret's name is chosen by whoever owns it`;
}
