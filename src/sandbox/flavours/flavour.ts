/**
 * Which server the sandbox plays: a fork and a release (`gitea@1.25`, `forgejo@11`), or the
 * idealised newest Gitea (`gitea@main`) that the sandbox was built as and that forgeform's tests
 * assume. What differs between them is data in `releases.ts`; this module only names and orders
 * the releases.
 */

import type { Release } from '../../releases/availability.js';

export type Fork = 'gitea' | 'forgejo';

export interface Flavour {
  /** As given on the command line: `gitea@1.25`, `forgejo@11`, `gitea@main`. */
  name: string;
  fork: Fork;
  /**
   * Where the release sits in its fork's order: Gitea's minor (1.25 → 25; main → Infinity),
   * Forgejo's major (11).
   */
  release: number;
  /** What `GET /api/v1/version` answers (the last patch release of the line). */
  version: string;
  /** What `GET /api/forgejo/v1/version` answers (Forgejo only). */
  forgejoVersion?: string;
}

/** A release named in the availability tables: `'1.23'` (Gitea), `11` (Forgejo), `'main'`. */
export type { Release };

/** Every release the sandbox can play. Version strings: see NOTES.md "Flavours". */
export const FLAVOURS: readonly Flavour[] = [
  gitea('1.21', '1.21.11'),
  gitea('1.22', '1.22.6'),
  gitea('1.23', '1.23.8'),
  gitea('1.24', '1.24.7'),
  gitea('1.25', '1.25.4'),
  gitea('1.26', '1.26.0'),
  // The idealised server the sandbox was written as: upstream main after 1.27.0-rc0.
  { name: 'gitea@main', fork: 'gitea', release: Number.POSITIVE_INFINITY, version: '1.27.0+forgeform-sandbox' },
  // Built from a git checkout (the official images): `X.Y.Z+gitea-A.B.C`, and the same on the Forgejo route.
  forgejo(7, '7.0.16+gitea-1.21.11'),
  forgejo(11, '11.0.15+gitea-1.22.0'),
  forgejo(15, '15.0.3+gitea-1.22.0'),
];

/**
 * The flavour when none is asked for: the newest Gitea release, as a newcomer's server would be.
 * `gitea@main` (Gitea's development branch, with what no release has yet) is asked for by name.
 */
export const DEFAULT_FLAVOUR_NAME = 'gitea@1.26';

function gitea(line: string, version: string): Flavour {
  return { name: `gitea@${line}`, fork: 'gitea', release: releaseNumber('gitea', line), version };
}

function forgejo(major: number, version: string): Flavour {
  return { name: `forgejo@${major}`, fork: 'forgejo', release: major, version, forgejoVersion: version };
}

/** `'1.23'` → 23, `'main'` → Infinity, `11` → 11. */
export function releaseNumber(fork: Fork, release: Release): number {
  if (release === 'main') return Number.POSITIVE_INFINITY;
  if (typeof release === 'number') return release;
  return fork === 'gitea' ? Number(release.split('.')[1]) : Number(release);
}

export class FlavourError extends Error {
  override name = 'FlavourError';
}

/** `gitea@1.25` (also `gitea@1.25.4`, `forgejo@11.0`): the flavour, or an error listing the known ones. */
export function parseFlavour(text: string): Flavour {
  const m = /^(gitea|forgejo)@(main|\d+(?:\.\d+)*)$/i.exec(text.trim());
  const known = (): string => FLAVOURS.map((f) => f.name).join(', ');
  if (!m) throw new FlavourError(`unknown flavour "${text}": expected FORK@RELEASE, one of ${known()}`);
  const fork = m[1]!.toLowerCase() as Fork;
  const parts = m[2]!.split('.');
  const line = m[2] === 'main' ? 'main' : fork === 'gitea' ? parts.slice(0, 2).join('.') : parts[0]!;
  const found = FLAVOURS.find((f) => f.name === `${fork}@${line}`);
  if (!found) throw new FlavourError(`unknown flavour "${text}": the sandbox plays ${known()}`);
  return found;
}

export function defaultFlavour(): Flavour {
  return parseFlavour(DEFAULT_FLAVOUR_NAME);
}
