import { defineConfig } from 'vitest/config';

/**
 * The cross-flavour matrix (test/matrix): forgeform's core scenarios against the sandbox playing
 * every Gitea and Forgejo release it knows, one test file per flavour so that flavours run in
 * parallel. `npm test` runs them with everything else; `npm run test:matrix` runs them alone.
 */
export default defineConfig({
  test: {
    include: ['test/matrix/**/*.matrix.ts'],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
