// Issue 29: the sandbox's route handlers get a typed context (src/sandbox/http/context.ts: inRepo, inOrg,
// signedIn) from the steps their route group runs (repoAssignment, orgAssignment, reqToken), so they
// read ctx.repo, ctx.org and ctx.doer without a non-null assertion. The files below still have some,
// with how many: the count may only go down, and no other file may start asserting one (the goal is none).
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

/** Files not yet moved to the typed contexts, with their count of assertions left (may only go down). */
const LEFT: Record<string, number> = {
'src/sandbox/domains/actions-settings/routes.ts': 3,
  'src/sandbox/domains/actions/routes.ts': 3,
  'src/sandbox/domains/hooks/webhook-routes.ts': 1,
  'src/sandbox/domains/issues/comments.ts': 4,
  'src/sandbox/domains/issues/issue-labels.ts': 3,
  'src/sandbox/domains/issues/pulls.ts': 3,
  'src/sandbox/domains/issues/routes.ts': 5,
  'src/sandbox/domains/mirrors/pull.ts': 1,
  'src/sandbox/domains/notifications/routes.ts': 3,
  'src/sandbox/domains/org-members/routes.ts': 5,
  'src/sandbox/domains/orgs/routes.ts': 2,
  'src/sandbox/domains/repos/routes.ts': 6,
  'src/sandbox/domains/repos/settings.ts': 2,
  'src/sandbox/domains/teams/routes.ts': 13,
  'src/sandbox/domains/users/badges-keys.ts': 6,
  'src/sandbox/domains/users/routes.ts': 5,
  'src/sandbox/domains/users/tokens.ts': 3,
  'src/sandbox/domains/users/user-info.ts': 2,
};

describe('the sandbox route context', () => {
  it('finds the assertions where there are some (the scan works)', () => {
    expect(contextAssertions('x.ts', 'const a = ctx.repo!.id;\nconst b = ctx.doer!;\nconst c = other!.x;\nconst d = ctx.params.id!;\n')).toEqual(2);
  });

  it('is typed where the steps set it: no handler asserts ctx.repo, ctx.org or ctx.doer beyond what is left', () => {
    const counts = Object.fromEntries(
      sourceFiles(root, 'src/sandbox')
        .map((f) => [f, contextAssertions(f, readFileSync(join(root, f), 'utf8'))] as const)
        .filter(([, n]) => n > 0),
    );
    for (const [f, n] of Object.entries(counts)) expect(n, `${f}: use inRepo / inOrg / signedIn (src/sandbox/http/context.ts)`).toBeLessThanOrEqual(LEFT[f] ?? 0);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(70);
  });
});
