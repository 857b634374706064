#!/usr/bin/env node
// The long run of the contract property (issue 27): `npm run fuzz -- --seed N --runs M`.
// Generates M configs from the schema from seed N, runs each against every flavour (plan, apply,
// plan again), prints each failing case with its seed, shrunk config and what broke, and keeps it
// in test/fixtures/contract/ for the suite to replay (test/e2e/contract.test.ts).
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { seed: { type: 'string', default: String(Date.now() % 1_000_000) }, runs: { type: 'string', default: '200' } } });
for (const [name, v] of Object.entries(values)) {
  if (!/^\d+$/.test(v)) {
    console.error(`--${name} must be a whole number, got ${JSON.stringify(v)}`);
    process.exit(1);
  }
}
console.log(`contract fuzz: seed ${values.seed}, ${values.runs} configs × every flavour`);
const r = spawnSync('npx', ['vitest', 'run', 'test/e2e/contract.test.ts', '--reporter', 'verbose'], {
  stdio: 'inherit',
  env: { ...process.env, FORGEFORM_CONTRACT_LONG: '1', FORGEFORM_CONTRACT_SEED: values.seed, FORGEFORM_CONTRACT_RUNS: values.runs },
});
process.exit(r.status ?? 1);
