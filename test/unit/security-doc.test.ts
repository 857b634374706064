/**
 * docs/security.md states the trust model and names, for each claim, the test that holds it (issue 28): a named test
 * file that does not exist is a claim nothing checks. Also the model's anchor, which the doc links to, is there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const doc = readFileSync(new URL('docs/security.md', root), 'utf8');

describe('docs/security.md', () => {
  const named = [...new Set([...doc.matchAll(/`(test\/[\w./-]+\.test\.ts)`/g)].map((m) => m[1]!))];

  it('names tests, and each test it names exists', () => {
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((f) => !existsSync(new URL(f, root)))).toEqual([]);
  });

  it('has the model section its own links point at', () => {
    expect(doc).toMatch(/^## The model: who may edit what, what a reviewer sees$/m);
    expect(doc).toContain('(#the-model-who-may-edit-what-what-a-reviewer-sees)');
  });
});
