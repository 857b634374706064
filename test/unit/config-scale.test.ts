// Large configs: loading stays linear in the size (the times are printed by `npm run bench`, never asserted here);
// these tests check that a big config is read completely and correctly, and that its errors stay findable.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/errors.js';
import { loadConfig } from '../../src/config/load.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'forgeform-config-scale-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REPOS = 250;
const LABELS_PER_REPO = 100;

const repoName = (r: number) => `acme/repo-${String(r).padStart(4, '0')}`;
const labelName = (l: number) => `area/component-${String(l).padStart(3, '0')}`;
const colour = (r: number, l: number) => ((r * 7919 + l * 104_729) % 0xffffff).toString(16).padStart(6, '0');

/** 250 repositories × 100 labels, about 5 MB: every label has its own colour, so a mix-up shows. */
function bigConfig(): string {
  const lines = ['version: 1', 'repos:'];
  for (let r = 0; r < REPOS; r++) {
    lines.push(`  ${repoName(r)}:`, '    labels:');
    for (let l = 0; l < LABELS_PER_REPO; l++) {
      lines.push(
        `      ${labelName(l)}: { color: "${colour(r, l)}", description: "Component ${l} of repository ${r}: a description long enough to be realistic for a label, as triage guides write them", exclusive: ${l % 2 === 0} }`,
      );
    }
  }
  return lines.join('\n') + '\n';
}

describe('a config of 25,000 labels', () => {
  it('loads every label with its own values and locates each one in the file', async () => {
    const file = join(dir, 'big.yaml');
    const text = bigConfig();
    writeFileSync(file, text);
    expect(text.length).toBeGreaterThan(4_500_000);

    const loaded = await loadConfig([file], {});
    const repos = loaded.config.repos ?? {};
    expect(Object.keys(repos)).toHaveLength(REPOS);
    let labels = 0;
    for (let r = 0; r < REPOS; r++) {
      const got = repos[repoName(r)]?.labels ?? {};
      labels += Object.keys(got).length;
      for (const l of [0, 57, LABELS_PER_REPO - 1]) {
        expect(got[labelName(l)]).toEqual({
          color: colour(r, l),
          description: `Component ${l} of repository ${r}: a description long enough to be realistic for a label, as triage guides write them`,
          exclusive: l % 2 === 0,
        });
      }
    }
    expect(labels).toBe(25_000);
    // Repository r starts at line 3 + r × 102 (its key, "labels:", 100 labels); label l is 2 + l lines below.
    for (const [r, l] of [
      [0, 0],
      [123, 45],
      [REPOS - 1, LABELS_PER_REPO - 1],
    ] as const) {
      expect(loaded.locate(['repos', repoName(r), 'labels', labelName(l)], true)).toEqual({ file, line: 3 + r * 102 + 2 + l, col: 7 });
    }
  });

  it('reports every duplicate and every schema error of a big map, each at its own line', async () => {
    const lines = ['version: 1', 'orgs:', '  acme:', '    labels:'];
    for (let l = 0; l < 25_000; l++) lines.push(`      l${l}: { color: "${l % 5000 === 1 ? 'red' : 'ee0701'}" }`);
    // Line of label l: 5 + l.
    lines.push('      l7: {}', '      l24999: {}');
    const file = join(dir, 'dups.yaml');
    writeFileSync(file, lines.join('\n') + '\n');
    const e = await loadConfig([file], {}).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(ConfigError);
    // Duplicate keys are YAML problems: the schema is checked once the file reads as intended.
    expect((e as ConfigError).problems).toEqual([
      { file, line: 25_005, col: 7, message: 'duplicate key "l7" in orgs.acme.labels (first at line 12, column 7)' },
      { file, line: 25_006, col: 7, message: 'duplicate key "l24999" in orgs.acme.labels (first at line 25004, column 7)' },
    ]);

    writeFileSync(file, lines.slice(0, -2).join('\n') + '\n');
    const schemaErrors = await loadConfig([file], {}).then(
      () => undefined,
      (err: unknown) => err as ConfigError,
    );
    expect(schemaErrors?.problems.map((p) => `${p.line}:${p.col}`)).toEqual(['6:20', '5006:23', '10006:24', '15006:24', '20006:24']);
  });

  it('reports an unterminated "${" once in a string of 200,000 of them', async () => {
    const file = join(dir, 'refs.yaml');
    writeFileSync(file, `version: 1\norgs:\n  acme: { description: "${'${'.repeat(200_000)}" }\n`);
    const e = await loadConfig([file], {}).then(
      () => undefined,
      (err: unknown) => err as ConfigError,
    );
    expect(e?.message).toBe(`${file}:3:24: unterminated "\${" in a string: write \${NAME} to read an environment variable, or $\${ for a literal "\${"`);
  });
});
