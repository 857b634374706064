import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kinds } from '../../src/kinds/index.js';
import { exportable } from '../../src/model/index.js';
import { EVERY_KIND } from '../support/seeds.js';
import { calls, mapExportedSecrets, world, type World } from './helpers.js';

let w: World;
beforeAll(async () => {
  w = await world(EVERY_KIND);
});
afterAll(async () => w.sandbox.close());

// The registry's contract, end to end: whatever kinds there are, export then plan is empty.
describe('export of a server with objects of every kind', () => {
  it('writes every exportable kind, and planning the file against the same server changes nothing', async () => {
    const out = `${w.dir}/exported.yaml`;
    const exported = await w.cli(['export', '-o', out]);
    expect(exported.code, exported.stderr).toBe(0);
    const text = readFileSync(out, 'utf8');
    for (const kind of kinds.filter(exportable)) expect(text, kind.name).toMatch(new RegExp(`^\\s*${kind.configKey}:`, 'm'));
    for (const name of ['alice:', 'acme:', 'acme/widgets:', 'org-bug:', 'bug:', 'main:', 'v*:', 'public_members:', 'https://ci.example.com/hook', 'https://ci.example.com/widgets', 'https://hooks.slack.example.com/acme', 'runner-1:', 'https://mirror.example.com/acme/widgets.git', 'from: https://code.example.com/upstream/tools.git', 'interval: 12h0m0s', 'ORG_TOKEN:', 'REGISTRY:', 'DEPLOY_KEY:', 'DEPLOY_ENV:']) expect(text).toContain(name);
    // Secrets are exported as placeholders (their values cannot be read, and a name the server chose never selects a
    // variable: issue 28): the user maps each to a variable she sets before planning.
    expect(text).toContain('value: "(unmapped secret: write the variable that holds it)"');
    expect(text).not.toContain('${');
    writeFileSync(out, mapExportedSecrets(text, (name) => `MAPPED_${name}`));

    w.sandbox.clearRequests();
    const plan = await w.cli(['plan', '-c', out, '--detailed-exitcode'], { MAPPED_ORG_TOKEN: 'org-token-value', MAPPED_DEPLOY_KEY: 'deploy-key-value' });
    expect(plan.stderr).not.toMatch(/error|warning/i);
    expect(plan.stdout).toContain('No changes');
    expect(plan.code).toBe(0);
    expect(calls(w.sandbox).filter((c) => !c.startsWith('GET '))).toEqual([]);
  });
});
