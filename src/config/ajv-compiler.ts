import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * ajv's compiler, loaded only when the schema must be compiled at run time (no precompiled validator beside the
 * built modules). The action's bundle replaces this module by a static import, so that it carries ajv itself.
 */
export function loadAjv(): typeof import('ajv') {
  return require('ajv') as typeof import('ajv');
}
