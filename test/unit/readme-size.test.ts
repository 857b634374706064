import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';

// README.md is the newcomer's page: what it cannot say in 200 lines goes to docs/ (issue 29).
it('README.md stays within 200 lines', () => {
  const lines = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').trimEnd().split('\n').length;
  expect(lines).toBeLessThanOrEqual(200);
});
