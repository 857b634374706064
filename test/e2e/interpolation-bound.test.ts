/**
 * Interpolation is bounded by the config's size limit (issue 28, item 7): 40,000 `${BIG}` of 100 KB each would
 * make a 4 GB string (a V8 out-of-memory abort before); now one located line, exit 1, before any request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { world, type World } from './helpers.js';

let w: World | undefined;
afterEach(async () => {
  await w?.sandbox.close();
  w = undefined;
});

describe('interpolation stays within the config size limit', () => {
  it('40,000 references to a 100 KB variable: one located line, no crash, nothing sent', async () => {
    w = await world({ users: [{ username: 'root', admin: true, email: 'root@example.com' }] });
    const file = w.config(`version: 1
users:
  carol:
    email: carol@example.com
    description: "${'${BIG}'.repeat(40_000)}"
`);
    const BIG = 'x'.repeat(100 * 1024);
    for (const command of ['validate', 'plan']) {
      const r = await w.cli([command, '-c', file], { BIG });
      expect(r.code, r.stderr).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toEqual([expect.stringMatching(/^\S*forgeform\.yaml:5:\d+: \$\{BIG\} here brings the config past 5\.0 MB once its variables are read/)]);
      expect(r.stdout).not.toContain('xxxxxxxxxx');
    }
    expect(w.sandbox.requests().filter((q) => q.method !== 'GET')).toEqual([]);
    // Within the limit, the same variable read a few times is fine.
    const fine = w.config(`version: 1
users:
  carol:
    email: carol@example.com
    description: "\${BIG}\${BIG}"
`, 'fine.yaml');
    expect((await w.cli(['validate', '-c', fine], { BIG })).code).toBe(0);
  });
});
