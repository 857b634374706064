/**
 * The releases the sandbox plays (src/sandbox/flavours/flavour.ts), each as the last patch release of its line, and
 * how the generators that read their tagged sources (scripts/swagger-tables.mjs, scripts/field-rules.mjs) reach them:
 * one list, so that the tables of a release are always read from the same tag.
 *
 *   node scripts/<generator>.mjs --gitea DIR --forgejo DIR [--gitea-main DIR]
 *
 * DIR is a git directory holding the tags (a bare mirror is enough: files are read with `git show`). Gitea 1.26 has
 * no tag in any copy read: it is read from `main` of the --gitea-main copy (1.26.0-dev).
 */
import { execFileSync } from 'node:child_process';

export const RELEASES = [
  { name: 'gitea@1.21', repo: 'gitea', ref: 'v1.21.11' },
  { name: 'gitea@1.22', repo: 'gitea', ref: 'v1.22.6' },
  { name: 'gitea@1.23', repo: 'gitea', ref: 'v1.23.8' },
  { name: 'gitea@1.24', repo: 'gitea', ref: 'v1.24.7' },
  { name: 'gitea@1.25', repo: 'gitea', ref: 'v1.25.4' },
  { name: 'gitea@1.26', repo: 'gitea-main', ref: 'main' },
  { name: 'forgejo@7', repo: 'forgejo', ref: 'v7.0.16' },
  { name: 'forgejo@11', repo: 'forgejo', ref: 'v11.0.15' },
  { name: 'forgejo@15', repo: 'forgejo', ref: 'v15.0.3' },
];

/** `--gitea DIR --forgejo DIR [--gitea-main DIR]` → { gitea, forgejo, 'gitea-main' }. */
function mirrors(argv) {
  const out = {};
  for (let i = 2; i < argv.length; i += 2) {
    const key = argv[i]?.replace(/^--/, '');
    if (!key || argv[i + 1] === undefined) throw new Error(`usage: ${argv[1]} --gitea DIR --forgejo DIR [--gitea-main DIR]`);
    out[key] = argv[i + 1];
  }
  return out;
}

/** `git --git-dir DIR …`, its output as text. */
export function git(dir, ...args) {
  return execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
}

/** Calls `each(release, dir)` for every release whose mirror the command line gives; says which it skips. */
export function forEachRelease(argv, each) {
  const dirs = mirrors(argv);
  for (const r of RELEASES) {
    const dir = dirs[r.repo];
    if (!dir) console.error(`skipped ${r.name}: no --${r.repo} given`);
    else each(r, dir);
  }
}
