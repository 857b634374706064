/** One problem in a config: where it is (line and col 1-based; 0 when it concerns the whole file) and what was expected. */
export interface ConfigProblem {
  file: string;
  line: number;
  col: number;
  message: string;
}

/** `file:line:col: message`, or `file: message` for a problem about the whole file. */
export function formatProblem(p: ConfigProblem): string {
  return p.line > 0 ? `${p.file}:${p.line}:${p.col}: ${p.message}` : `${p.file}: ${p.message}`;
}

/**
 * Sorts problems by file (in `fileOrder` when given, else by name), line and column, and drops exact duplicates.
 */
export function sortProblems(problems: readonly ConfigProblem[], fileOrder: readonly string[] = []): ConfigProblem[] {
  const rank = (f: string) => {
    const i = fileOrder.indexOf(f);
    return i < 0 ? fileOrder.length : i;
  };
  const sorted = [...problems].sort(
    (a, b) =>
      rank(a.file) - rank(b.file) ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.col - b.col,
  );
  const seen = new Set<string>();
  return sorted.filter((p) => {
    const key = formatProblem(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Thrown by loadConfig: every problem found in the config, one per line in `message`. */
export class ConfigError extends Error {
  readonly problems: ConfigProblem[];

  constructor(problems: readonly ConfigProblem[], fileOrder: readonly string[] = []) {
    const sorted = sortProblems(problems, fileOrder);
    super(sorted.map(formatProblem).join('\n'));
    this.name = 'ConfigError';
    this.problems = sorted;
  }
}
