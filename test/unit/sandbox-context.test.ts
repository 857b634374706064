// Issue 29: the sandbox's route handlers get a typed context (src/sandbox/http/context.ts: inRepo, inOrg,
// signedIn, forUser) from the steps their route group runs (repoAssignment, orgAssignment, reqToken,
// userAssignment), so they read ctx.repo, ctx.org, ctx.doer and ctx.contextUser without a non-null
// assertion. None is left, and none may come back.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './support/source-scan.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The non-null assertions of what a route's steps set on its context (`ctx.repo!`, `ctx.org!`, `ctx.doer!` …). */
function contextAssertions(path: string, source: string): number {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  let n = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isNonNullExpression(node) && /^ctx\.(repo|repoOwner|org|doer|contextUser)$/.test(node.expression.getText(file))) n++;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return n;
}

describe('the sandbox route context', () => {
  it('finds the assertions where there are some (the scan works)', () => {
    expect(contextAssertions('x.ts', 'const a = ctx.repo!.id;\nconst b = ctx.doer!;\nconst c = other!.x;\nconst d = ctx.params.id!;\n')).toEqual(2);
  });

  it('is typed where the steps set it: no handler asserts ctx.repo, ctx.repoOwner, ctx.org, ctx.doer or ctx.contextUser', () => {
    const files = sourceFiles(root, 'src/sandbox');
    expect(files.length).toBeGreaterThan(50);
    const asserting = files
      .map((f) => [f, contextAssertions(f, readFileSync(join(root, f), 'utf8'))] as const)
      .filter(([, n]) => n > 0)
      .map(([f, n]) => `${f}: ${n} (use inRepo / inOrg / signedIn / forUser, src/sandbox/http/context.ts)`);
    expect(asserting).toEqual([]);
  });
});
