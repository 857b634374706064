// What the tag protection kind refuses of a pattern before the server stores it uncompiled (models/git/protected_tag.go EnsureCompiledPattern).
import { describe, expect, it } from 'vitest';
import { patternProblem } from '../../src/kinds/tag_protection/plan.js';

describe('tag protection patterns', () => {
  it('takes globs gobwas/glob compiles and Go regular expressions between slashes', () => {
    for (const p of ['v*', 'v[0-9]*', 'release-{a,b}', 'v\\*', '/^v[0-9]+$/', '/(?i)^rc-/', '/(?P<major>[0-9]+)/', '/', '*']) expect(patternProblem(p), p).toBeUndefined();
  });

  it('refuses unclosed globs, look-around and back-references, broken expressions, and spaces the server would trim', () => {
    expect(patternProblem('v[0-9')).toMatch(/unclosed "\["/);
    expect(patternProblem('release-{a,b')).toMatch(/unclosed "\{"/);
    expect(patternProblem('v\\')).toMatch(/unfinished escape/);
    expect(patternProblem('/(?=v)/')).toMatch(/look-around/);
    expect(patternProblem('/(a)\\1/')).toMatch(/back-references/);
    expect(patternProblem('/v[0-9/')).toMatch(/does not compile/);
    expect(patternProblem(' v* ')).toMatch(/trims spaces/);
  });
});
