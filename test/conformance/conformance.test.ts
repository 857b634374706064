/**
 * The conformance suite: every fact of facts.ts (read from the tagged sources, each with its citation)
 * against the sandbox playing every released Gitea and Forgejo. One sandbox per release; the facts run
 * in order, each on its own objects of the seed.
 */
import { expect, it } from 'vitest';
import { FACTS, SEED } from './facts.js';
import { checkFacts, RELEASED } from './run-facts.js';

checkFacts('%s conforms to its source', SEED, FACTS);

it(`checks ${FACTS.length} facts × ${RELEASED.length} releases`, () => {
  expect(FACTS.length * RELEASED.length).toBeGreaterThanOrEqual(200);
});
