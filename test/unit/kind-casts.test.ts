// Issue 20: a kind is typed end to end, so src/kinds needs no type assertion (`x as T`, `<T>x`) and no
// non-null assertion (`x!`): the values the engine keeps for a kind and hands back get their types back
// in one place (defineKind, src/model/define.ts). `as const` is no assertion of a type and stays.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './support/source-scan.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Each assertion in a source, as "line: text". */
function assertions(path: string, source: string): string[] {
  const file = ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    const cast = (ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && node.type.getText(file) !== 'const';
    if (cast || ts.isNonNullExpression(node)) out.push(`${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1}: ${node.getText(file)}`);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

describe('src/kinds asserts no type', () => {
  it('finds casts and non-null assertions where there are some (the scan works)', () => {
    expect(assertions('x.ts', 'const a = b as string;\nconst c = d!.e;\nconst f = [1] as const;\nconst g = <number>h;\n// x as y, z!.w\n')).toEqual(['1: b as string', '2: d!', '4: <number>h']);
  });

  it('has none in src/kinds', () => {
    const found = sourceFiles(root, 'src/kinds').flatMap((f) => assertions(f, readFileSync(join(root, f), 'utf8')).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });
});
