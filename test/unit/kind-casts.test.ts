// Issue 20: a kind is typed end to end, so src/kinds needs no type assertion (`x as T`, `<T>x`) and no
// non-null assertion (`x!`). Issue 29: the kind contract is declared once (src/model/kind.ts) and the
// engine calls the kind's own facets with the requests it builds (src/model/requests.ts), so src/model
// holds one assertion only: defineKind's erasure of a kind's types (src/model/define.ts), whose comment
// says why it is sound. `as const` is no assertion of a type and stays.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './support/source-scan.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Each assertion in a source, as "line: text" (an assertion inside another is listed after it). */
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
    expect(found('src/kinds')).toEqual([]);
  });

  it('has one in src/model: defineKind erases a kind\'s types, once, where it says why that is sound', () => {
    const atErasure = found('src/model').map((hit) => hit.replace(/:\d+: /, ': '));
    expect(atErasure).toEqual(['src/model/define.ts: def as unknown as Kind', 'src/model/define.ts: def as unknown']);
  });
});

/** Every assertion in the sources under a folder, as "file:line: text". */
function found(folder: string): string[] {
  return sourceFiles(root, folder).flatMap((f) => assertions(f, readFileSync(join(root, f), 'utf8')).map((hit) => `${f}:${hit}`));
}
