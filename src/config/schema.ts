import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv as AjvClass, ValidateFunction } from 'ajv';
import { loadAjv } from './ajv-compiler.js';

/**
 * The config schema and its validator. `npm run build` writes the validator as plain code (ajv "standalone") beside
 * the built modules, so that a run does not compile the schema: compiling costs 40-300 ms of every `validate`, `plan`
 * and `apply`, loading the code about 15 ms. Without that file (tests run from src/), or when it was compiled from
 * another version of the schema, the schema is compiled at run time as before: the result is the same.
 */

export type SchemaObject = Record<string, unknown>;

const require = createRequire(import.meta.url);
// Resolves from src/config/ and from the built dist/config/ alike.
const SCHEMA_FILE = new URL('../../schemas/forgeform.schema.json', import.meta.url);
/** Where the schema file of this forgeform is on disk: in an installed package, node_modules/forgeform/schemas/…. */
export const schemaPath = (): string => fileURLToPath(SCHEMA_FILE);
/** The file name of the precompiled validator, beside this module. */
export const PRECOMPILED_VALIDATOR = 'schema-validator.cjs';

/** Keywords that only editors read (yaml-language-server / VS Code); ajv's strict mode must know them. */
const EDITOR_KEYWORDS = [
  'markdownDescription',
  'enumDescriptions',
  'markdownEnumDescriptions',
  'defaultSnippets',
  'deprecationMessage',
  'patternErrorMessage',
  'errorMessage',
];

let text: string | undefined;
let schema: SchemaObject | undefined;
let validator: ValidateFunction | undefined;

function schemaText(): string {
  text ??= readFileSync(SCHEMA_FILE, 'utf8');
  return text;
}

/** Identifies the schema a precompiled validator was made from. */
export function schemaDigest(): string {
  return createHash('sha256').update(schemaText()).digest('hex');
}

/** The JSON Schema of a config file (schemas/forgeform.schema.json), read once. */
export function configSchema(): SchemaObject {
  schema ??= JSON.parse(schemaText()) as SchemaObject;
  return schema;
}

/** The one set of ajv options, for the run-time and the precompiled validator alike. */
function compile(source: boolean): { ajv: AjvClass; validate: ValidateFunction } {
  // Loaded here only: a run with the precompiled validator never loads ajv's compiler.
  const { Ajv } = loadAjv();
  // verbose: messages read the failing value (data) and the schema beside the keyword (parentSchema).
  const ajv = new Ajv({ allErrors: true, strict: true, verbose: true, ...(source ? { code: { source: true } } : {}) });
  ajv.addVocabulary(EDITOR_KEYWORDS);
  return { ajv, validate: ajv.compile(configSchema()) };
}

/**
 * The validator's code as a CommonJS module (ajv's standalone output requires ajv's small runtime helpers, which a
 * CommonJS module may do), with the digest of the schema it checks.
 */
export function precompiledValidatorSource(): string {
  const { ajv, validate } = compile(true);
  const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default;
  return `${standaloneCode(ajv, validate)}\nmodule.exports.schemaDigest = ${JSON.stringify(schemaDigest())};\n`;
}

/** The precompiled validator in `dir`, if there is one made from this schema. */
export function precompiledValidator(dir: URL): ValidateFunction | undefined {
  const file = new URL(PRECOMPILED_VALIDATOR, dir);
  if (!existsSync(file)) return undefined;
  const mod = require(fileURLToPath(file)) as ValidateFunction & { schemaDigest?: string };
  return mod.schemaDigest === schemaDigest() ? mod : undefined;
}

/** The schema's validator: precompiled when `npm run build` made one from this schema, else compiled now. */
export function schemaValidator(): ValidateFunction {
  validator ??= precompiledValidator(new URL('.', import.meta.url)) ?? compile(false).validate;
  return validator;
}
