// The precompiled validator (written by `npm run build`) must judge every config exactly as the schema compiled at
// run time does, and must be ignored when it was made from another version of the schema.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PRECOMPILED_VALIDATOR, precompiledValidator, precompiledValidatorSource, schemaDigest, schemaValidator } from '../../src/config/schema.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'forgeform-schema-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Loads the generated module's text the way Node loads a .cjs file, resolving ajv from this repository. */
function evaluate(source: string): ValidateFunction & { schemaDigest?: string } {
  const mod = { exports: {} as ValidateFunction & { schemaDigest?: string } };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('module', 'exports', 'require', source)(mod, mod.exports, createRequire(import.meta.url));
  return mod.exports;
}

const configs: unknown[] = [
  { version: 1 },
  { version: 2, extra: true },
  'FORGEFORM_TOKEN=abc',
  { version: 1, policy: { prune: ['labels', 'label', 'labels'], max_deletes: -1 }, server: { url: 'git.example.com' } },
  { version: 1, repos: { widgets: {}, 'acme/*': { labels: { '': {}, bug: { color: 'red', colour: 'ee0701', exclusive: 'yes' } } } } },
  { version: 1, repos: { 'acme/w': { branch_protections: { main: { priority: 0, required_approvals: 1.5, push_whitelist_usernames: 'alice' } } } } },
  { version: 1, users: { alice: { email: 3, visibility: 'publik', ssh_keys: [{ title: 'x' }] } }, hooks: [{ url: 'ftp://x', scope: 'nope' }, {}] },
  { version: 1, orgs: { acme: { labels: { bug: null } } }, actions: { runners: { r1: { disabled: 'no' } } } },
];

describe('the precompiled schema validator', () => {
  it('gives the same answer and the same errors as the schema compiled at run time', () => {
    const pre = evaluate(precompiledValidatorSource());
    expect(pre.schemaDigest).toBe(schemaDigest());
    const runtime = schemaValidator();
    for (const config of configs) {
      const expected = runtime(config);
      const expectedErrors = structuredClone(runtime.errors);
      expect(pre(config)).toBe(expected);
      expect(pre.errors).toEqual(expectedErrors);
    }
    expect(configs.filter((c) => !pre(c))).toHaveLength(configs.length - 1);
  });

  it('is used only when it was made from this schema', () => {
    const stub = (digest: string) =>
      writeFileSync(join(dir, PRECOMPILED_VALIDATOR), `module.exports = () => true;\nmodule.exports.schemaDigest = ${JSON.stringify(digest)};\n`);
    const at = pathToFileURL(`${dir}/`);
    expect(precompiledValidator(at)).toBeUndefined(); // none written
    stub('0'.repeat(64));
    expect(precompiledValidator(at)).toBeUndefined(); // another schema's
    rmSync(join(dir, PRECOMPILED_VALIDATOR));
    // A new file name: require caches modules by path.
    const fresh = mkdtempSync(join(tmpdir(), 'forgeform-schema-fresh-'));
    try {
      writeFileSync(join(fresh, PRECOMPILED_VALIDATOR), `module.exports = () => true;\nmodule.exports.schemaDigest = ${JSON.stringify(schemaDigest())};\n`);
      expect(precompiledValidator(pathToFileURL(`${fresh}/`))?.({ version: 99 })).toBe(true);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});
