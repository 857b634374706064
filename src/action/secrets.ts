import * as core from '@actions/core';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** `${NAME}` and `${env:NAME}`, as the config interpolates them. */
const REFERENCE = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g;

function configFiles(path: string): string[] {
  try {
    if (statSync(path).isDirectory()) {
      return readdirSync(path)
        .filter((f) => /\.ya?ml$/.test(f))
        .map((f) => join(path, f));
    }
    return [path];
  } catch {
    return []; // the CLI reports a missing config with its place; nothing to mask here
  }
}

/**
 * Names of every environment variable the config files read (`${NAME}`, `${env:NAME}`), whatever field reads it: the
 * value of each is masked in every output (issue 28), as the CLI masks them. A pull request that puts
 * `${CI_HOOK_SECRET}` in a description must not get the value into the log, the step summary, the comment or the
 * "merged but not applied" issue, even when the apply refuses the config.
 */
export function referencedVariables(configs: string[], cwd: string): string[] {
  const names = new Set<string>();
  for (const c of configs) {
    for (const file of configFiles(resolve(cwd, c))) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      for (const m of text.matchAll(REFERENCE)) names.add(m[1]!);
    }
  }
  return [...names].sort();
}

/**
 * Every secret is registered with the runner (`::add-mask::`, one per line of a multi-line value)
 * before the action prints anything, and `redact` removes them from what the action writes
 * itself: outputs, the step summary, comments and issues, which the runner does not mask.
 */
export class Secrets {
  private values: string[] = [];

  add(value: string | undefined): void {
    if (!value) return;
    for (const part of new Set([value, ...value.split(/\r?\n/)].map((v) => v.trim()))) {
      // Like the CLI, values shorter than 3 characters are not treated as secrets: masking "a" would garble every line.
      if (part.length < 3 || this.values.includes(part)) continue;
      core.setSecret(part);
      this.values.push(part);
    }
    this.values.sort((a, b) => b.length - a.length);
  }

  redact(text: string): string {
    let t = text;
    for (const v of this.values) t = t.split(v).join('***');
    return t;
  }
}
