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
 * Names of the environment variables the config files read for a secret field (one of `secretFields`,
 * the kinds' sensitive fields): a line that names such a field as a key. Other values are not secrets
 * and are shown as themselves (masking by type, as the CLI does); once the plan is made, the variables
 * its secret references read are masked too (action-run.ts), which also covers a value written on a
 * line of its own. A flow mapping with a secret field on the line masks every variable of that line.
 */
export function referencedVariables(configs: string[], cwd: string, secretFields: readonly string[]): string[] {
  const secretKey = new RegExp(`(^|[\\s{,"'-])(${secretFields.map((f) => f.replace(/\W/g, '')).join('|')})["']?\\s*:`);
  const names = new Set<string>();
  for (const c of configs) {
    for (const file of configFiles(resolve(cwd, c))) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        continue;
      }
      for (const line of text.split('\n')) if (secretKey.test(line)) for (const m of line.matchAll(REFERENCE)) names.add(m[1]!);
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
