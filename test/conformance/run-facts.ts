/**
 * How every conformance file runs its facts: on each release read from a tag (not the idealised
 * gitea@main), each on its own sandbox booted from the file's seed, an assertion a fact, failing with
 * the fact's citation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAVOURS, type Flavour } from '../../src/sandbox/flavours/flavour.js';
import type { SeedFile } from '../../src/sandbox/index.js';
import { boot, type Harness } from '../sandbox/helpers.js';
import type { Fact } from './facts.js';

/** Every release read from a tag (not the idealised gitea@main). */
export const RELEASED = FLAVOURS.filter((f) => Number.isFinite(f.release));

/**
 * `title` with `%s` for the release. `reset` runs before each release's sandbox boots (a file's name
 * counter); `more` declares that release's tests that are not facts.
 */
export function checkFacts(title: string, seed: SeedFile, facts: readonly Fact[], opts: { reset?: () => void; more?: (name: string, flavour: Flavour) => void } = {}): void {
  describe.each(RELEASED.map((f) => [f.name, f] as const))(title, (name, flavour) => {
    let h: Harness;
    beforeAll(async () => {
      opts.reset?.();
      h = await boot({ ...seed, flavour: name });
    });
    afterAll(async () => h?.sb.close());

    for (const fact of facts) {
      it(fact.id, async () => {
        expect(await fact.observe(h, flavour), `${fact.id}\n  read in: ${fact.cite}`).toEqual(fact.expected(flavour));
      });
    }
    opts.more?.(name, flavour);
  });
}
