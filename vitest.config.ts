import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/matrix: the core scenarios against every Gitea and Forgejo release the sandbox plays,
    // one file per flavour so that flavours run in parallel (`npm run test:matrix` runs them alone).
    include: ['test/**/*.test.ts', 'test/matrix/**/*.matrix.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
