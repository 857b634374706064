/**
 * The one shape of a problem forgeform reports, whoever finds it (config loading, scope resolution, a
 * kind's checks, the planner, apply's check of a saved plan), and its one formatter. It sits beside
 * src/model (which re-exports it) rather than in it, and imports only src/inert.ts: src/config reports
 * diagnostics too, and the model depends on src/config's types (KindContext.loaded), so a module in
 * src/model would close an import cycle between the two.
 */
import { inert } from './inert.js';

/** A place in a config file; line and col are 1-based. */
export interface SourceLocation {
  file: string;
  line: number;
  col: number;
}

/** A value's path in the merged configuration: section, keys and list indexes (repos, "acme/app", labels, "bug"). */
export type ConfigPath = (string | number)[];

export interface Diagnostic {
  /** What is wrong, as one sentence without the place, the resource or the advice. */
  message: string;
  /** What to do about it ("plan again", "write the new name"), printed after the message. */
  hint?: string;
  /** The object it concerns, as the user names it (a change id, `label "bug" in acme/app`, `--include "acme"`). */
  resource?: string;
  /** The file it was found in; with line > 0 also the place in it (line 0: the whole file). */
  file?: string;
  line?: number;
  col?: number;
  /**
   * Where in the configuration, for a finder that does not know the files (a kind, scope resolution):
   * the planner locates it and fills file, line and col.
   */
  path?: ConfigPath;
}

/** A diagnostic whose place in a file is known. */
export type LocatedDiagnostic = Diagnostic & SourceLocation;

/** `file:line:col`, `file` for a problem about the whole file, or undefined when it is in no file. */
export function placeOf(d: Diagnostic): string | undefined {
  if (d.file === undefined) return undefined;
  return d.line ? `${d.file}:${d.line}:${d.col ?? 0}` : d.file;
}

/**
 * What the diagnostic says without its place: `resource: message: hint`, each part when present. One
 * line, made inert (src/inert.ts): a message quotes names and values of the server and the config,
 * and a line break or an escape sequence in one of them must not print a line of its own (a forged
 * plan line under the error) or redraw the lines above.
 */
export function describeDiagnostic(d: Diagnostic): string {
  return inert([d.resource, d.message, d.hint].filter((part) => part !== undefined && part !== '').join(': '));
}

/** The one printed form: `file:line:col: resource: message: hint`, each part when present; one inert line. */
export function formatDiagnostic(d: Diagnostic): string {
  const place = placeOf(d);
  return place === undefined ? describeDiagnostic(d) : `${inert(place)}: ${describeDiagnostic(d)}`;
}

/** The diagnostic placed where `locate` finds its config path (when it has one and is not placed yet). */
export function locateDiagnostic(d: Diagnostic, locate: (path: ConfigPath) => SourceLocation | undefined): Diagnostic {
  if (d.file !== undefined || !d.path) return d;
  const at = locate(d.path);
  return at ? { ...d, ...at } : d;
}
