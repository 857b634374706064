import { defineConfig } from 'vitest/config';

/**
 * The cross-flavour matrix (test/matrix): forgeform's core scenarios against the sandbox playing
 * every Gitea and Forgejo release it knows, one test file per flavour so that flavours run in
 * parallel. Kept out of `npm test` (its files are `*.matrix.ts`) until forgeform handles every
 * release; run it with `npm run test:matrix`.
 */
export default defineConfig({
  test: {
    include: ['test/matrix/**/*.matrix.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
