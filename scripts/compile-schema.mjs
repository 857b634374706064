// Run by `npm run build` after tsc: writes the config schema's validator as code beside the built config modules,
// so that no run of the CLI compiles the schema (see src/config/schema.ts; without the file it compiles at run time).
import { writeFileSync } from 'node:fs';

const { PRECOMPILED_VALIDATOR, precompiledValidatorSource } = await import('../dist/config/schema.js');
writeFileSync(new URL(`../dist/config/${PRECOMPILED_VALIDATOR}`, import.meta.url), precompiledValidatorSource());
