/**
 * Names that look like others (issue 28 item 6): a Cyrillic "о" in a Latin name, a non-breaking hyphen, fullwidth
 * letters. The plan shows them escaped (in text and markdown) beside the real ones, warns once per change, and JSON
 * keeps the name exactly, with the warning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { world, type World } from './helpers.js';
import { rootAnd } from '../support/seeds.js';

let w: World;
const LOOK_ALIKES = ['b\u043eb', 'deploy\u2011prod', '\uff41dmin'];
beforeAll(async () => {
  w = await world({ users: rootAnd(), orgs: [{ name: 'acme', owners: ['root'] }], repos: [{ name: 'acme/widgets', labels: ['bob', 'deploy-prod', 'admin'].map((name) => ({ name, color: 'ee0701' })) }] });
});
afterAll(async () => w.sandbox.close());

const config = `version: 1
policy: { prune: [labels] }
repos:
  acme/widgets:
    labels:
${LOOK_ALIKES.map((n) => `      "${n}": { color: "00ff00" }`).join('\n')}
`;

describe('look-alike names', () => {
  it('are shown escaped beside the names they imitate, with a warning, in text and markdown', async () => {
    const file = w.config(config);
    for (const format of ['text', 'markdown']) {
      const plan = await w.cli(['plan', '-c', file, '--format', format]);
      expect(plan.code, plan.stderr).toBe(0);
      for (const shown of ['"b\\u043eb"', '"deploy\\u2011prod"', '"\\uff41dmin"']) expect(plan.stdout).toContain(`+ label ${shown}`);
      for (const real of ['"bob"', '"deploy-prod"', '"admin"']) expect(plan.stdout).toContain(`- label ${real}`);
      for (const raw of LOOK_ALIKES) expect(plan.stdout).not.toContain(raw);
      const warnings = plan.stdout.split('\n').filter((l) => /Warning:?\**:? label .* the name holds characters that look like others \(shown escaped\)/.test(l));
      expect(warnings).toHaveLength(3);
    }
  });

  it('are kept exactly in JSON, which carries the same warnings', async () => {
    const plan = await w.cli(['plan', '-c', w.config(config, 'json.yaml'), '--format', 'json']);
    const json = JSON.parse(plan.stdout) as { changes: { key: string; action: string }[]; warnings: string[] };
    expect(json.changes.filter((c) => c.action === 'create').map((c) => c.key).sort()).toEqual([...LOOK_ALIKES].sort());
    expect(json.warnings.filter((x) => x.includes('look like others'))).toHaveLength(3);
  });
});
