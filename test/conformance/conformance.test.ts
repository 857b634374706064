/**
 * The conformance suite: every fact of facts.ts (read from the tagged sources, each with its citation)
 * against the sandbox playing every released Gitea and Forgejo. One sandbox per release; the facts run
 * in order, each on its own objects of the seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FLAVOURS } from '../../src/sandbox/flavours/flavour.js';
import { boot, type Harness } from '../sandbox/helpers.js';
import { FACTS, SEED } from './facts.js';

/** Every release read from a tag (not the idealised gitea@main). */
export const RELEASED = FLAVOURS.filter((f) => Number.isFinite(f.release));

describe.each(RELEASED.map((f) => [f.name, f] as const))('%s conforms to its source', (name, flavour) => {
  let h: Harness;
  beforeAll(async () => {
    h = await boot({ ...SEED, flavour: name });
  });
  afterAll(async () => h?.sb.close());

  for (const fact of FACTS) {
    it(fact.id, async () => {
      expect(await fact.observe(h, flavour), `${fact.id}\n  read in: ${fact.cite}`).toEqual(fact.expected(flavour));
    });
  }
});

it(`checks ${FACTS.length} facts × ${RELEASED.length} releases`, () => {
  expect(FACTS.length * RELEASED.length).toBeGreaterThanOrEqual(200);
});
