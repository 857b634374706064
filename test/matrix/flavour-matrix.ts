/**
 * One flavour's matrix: one sandbox playing the release (server time zone east of UTC, so that a
 * date that only converges in UTC shows), every core scenario as plan → apply → plan-is-empty (or,
 * where the flavour cannot run it, a plan that stops with the version error), and one config that
 * uses a field the release lacks, which the plan must refuse naming the field and the server's
 * version. Runs the built CLI (`npm run build` first; `npm run test:matrix` does both).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFlavour } from '../../src/sandbox/index.js';
import { world, type World } from '../e2e/helpers.js';
import { versionCore } from './availability.js';
import { HOOK_TOKEN, lackingFor, PASSWORD, RELEASE_SCENARIOS, SCENARIOS, SEED } from './scenarios.js';

export const MATRIX_TIMEZONE = 'Asia/Tokyo';

/** What a failed CLI run said, for the assertion message. */
const said = (r: { code: number | null; stdout: string; stderr: string }): string => `exit ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;

export function defineFlavourMatrix(name: string): void {
  const flavour = parseFlavour(name);
  const version = versionCore(flavour);

  describe(`${name} (${flavour.version})`, () => {
    let w: World;
    beforeAll(async () => {
      w = await world(SEED, { flavour: name, timezone: MATRIX_TIMEZONE });
    });
    afterAll(async () => w?.sandbox.close());

    const env = { MATRIX_HOOK_TOKEN: HOOK_TOKEN, MATRIX_PASSWORD: PASSWORD };

    for (const scenario of [...SCENARIOS, ...RELEASE_SCENARIOS]) {
      it(scenario.name, async () => {
        const file = w.config(scenario.config(flavour), `${scenario.name.split(':')[0]}.yaml`);
        const lack = scenario.lacks?.(flavour);
        const plan = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
        if (lack) {
          expect(plan.code, said(plan)).toBe(1);
          expect(plan.stderr).toMatch(lack.names);
          expect(plan.stderr).toMatch(/ needs? /);
          expect(plan.stderr).toContain(version);
          return;
        }
        const refused = scenario.refuses?.(flavour);
        if (refused) {
          expect(plan.code, said(plan)).toBe(1);
          expect(plan.stderr).toMatch(refused);
          expect(plan.stderr).toContain(version);
          expect(plan.stderr).toContain('nothing was changed');
          return;
        }
        expect(plan.code, said(plan)).toBe(2);
        const apply = await w.cli(['apply', '-c', file, '--yes'], env);
        expect(apply.code, said(apply)).toBe(0);
        const again = await w.cli(['plan', '-c', file, '--detailed-exitcode'], env);
        expect(again.code, `a second plan must be empty: ${said(again)}`).toBe(0);
        await scenario.check?.(w, flavour);
      });
    }

    const lacking = lackingFor(flavour);
    it(`a config naming ${lacking?.key ?? '(none)'}, which ${name} lacks, is a plan error naming the field and the server version`, async () => {
      expect(lacking, `${name} lacks none of the candidate fields: add one to LACKING_CANDIDATES`).toBeDefined();
      const file = w.config(lacking!.config, 'lacking.yaml');
      const plan = await w.cli(['plan', '-c', file], env);
      expect(plan.code, said(plan)).toBe(1);
      expect(plan.stderr).toContain(lacking!.key);
      expect(plan.stderr).toContain('needs');
      expect(plan.stderr).toContain(version);
    });
  });
}
