import { formatDiagnostic, type LocatedDiagnostic } from '../diagnostic.js';

/** One problem in a config: where it is (line and col 1-based; 0 when it concerns the whole file) and what was expected. */
export type ConfigProblem = LocatedDiagnostic;

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
    const key = formatDiagnostic(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Problems listed in a ConfigError's message at most: past that, a count (the first ones are to be fixed first). */
export const MAX_PROBLEMS_SHOWN = 50;
/** Characters of one problem's message at most: messages quote the file, and a file can be anything. */
export const MAX_MESSAGE = 400;

function capped(p: ConfigProblem): string {
  const line = formatDiagnostic({ ...p, message: p.message.length > MAX_MESSAGE ? `${p.message.slice(0, MAX_MESSAGE - 1)}…` : p.message });
  // A problem is one line, whatever a message quoted.
  return line.replace(/[\r\n]+/g, ' ');
}

/**
 * Thrown by loadConfig: every problem found in the config in `problems`; in `message`, one per line, the first
 * MAX_PROBLEMS_SHOWN of them and how many more there are.
 */
export class ConfigError extends Error {
  readonly problems: ConfigProblem[];

  constructor(problems: readonly ConfigProblem[], fileOrder: readonly string[] = []) {
    const sorted = sortProblems(problems, fileOrder);
    const shown = sorted.slice(0, MAX_PROBLEMS_SHOWN).map(capped);
    const more = sorted.length - shown.length;
    if (more > 0) shown.push(`… and ${more} more problem${more === 1 ? '' : 's'} (fix the ones above first)`);
    super(shown.join('\n'));
    this.name = 'ConfigError';
    this.problems = sorted;
  }
}
