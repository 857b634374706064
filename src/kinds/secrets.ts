import type { KindContext, Problem } from './types.js';
import type { ConfigPath } from '../config/types.js';

/**
 * Secrets must come from environment variables: only those are masked in every output and replaced
 * by {"$env": …} references in a saved plan. A secret written in the config itself is refused.
 */
export function requireFromEnvironment(value: unknown, path: ConfigPath, field: string, ctx: KindContext): Problem[] {
  if (typeof value !== 'string') return [];
  const fromEnv = [...(ctx.loaded.secrets?.values() ?? [])].some((s) => s.length > 0 && value.includes(s));
  if (fromEnv) return [];
  return [
    {
      path,
      message: `${field} is a secret and must come from an environment variable (${field}: "\${NAME}"), so that it is never written in the config nor saved in a plan file`,
    },
  ];
}
