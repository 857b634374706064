import { AsyncLocalStorage } from 'node:async_hooks';
import { inspect } from 'node:util';
import type { SourceLocation } from './diagnostic.js';

/** How every output shows a secret. */
export const SENSITIVE = '(sensitive)';

/**
 * A sensitive value (a password, a hook secret, an authorization header) as it travels from the
 * config to the HTTP request. Whatever turns it into text — String(), a template literal,
 * JSON.stringify, util.inspect, an error message — gets "(sensitive)": a renderer, a log line or a
 * plan file cannot show it by mistake, whatever escaping it applies. Only reveal() gives the value,
 * and only the HTTP client calls it, when it serialises a request body.
 *
 * `template` is the config text it came from, with ${NAME} references (and $${ for a literal "${"):
 * a saved plan stores it instead of the value, and apply reads the environment again. It is an own
 * enumerable property so that two secrets compare equal (deep equality) exactly when they come from
 * the same template; the value itself lives in a private field that no copy or comparison sees.
 */
export class Secret {
  readonly #value: string;
  readonly template: string;

  constructor(value: string, template: string) {
    this.#value = value;
    this.template = template;
    runSecrets.getStore()?.add(value);
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return describeSecret(this.template);
  }

  toJSON(): string {
    return describeSecret(this.template);
  }

  [Symbol.toPrimitive](): string {
    return describeSecret(this.template);
  }

  [inspect.custom](): string {
    return describeSecret(this.template);
  }
}

/**
 * How every output shows a secret: never its value, always where it comes from, so that the source is part of what
 * is reviewed (issue 28): `(sensitive, from ${WIDGETS_DEPLOY_KEY})`, `(sensitive, from "Bearer ${CI_TOKEN}")`. A
 * saved plan edited to read another variable prints differently from the plan that was reviewed. A template that
 * reads no variable (a value the server holds, sent back as it is) is shown as `(sensitive)`: its text is no
 * reference, and could be a value.
 */
export function describeSecret(template: string): string {
  const names = templateVariables(template);
  if (names.length === 0) return SENSITIVE;
  const source = /^\$\{[^}]*\}$/.test(template) ? template : JSON.stringify(template);
  return `(sensitive, from ${source})`;
}

/**
 * What export writes for a secret value it cannot read (issue 28): a placeholder that plans nothing — planning it is an
 * error at its place until the user maps it to a variable she sets. Never a `${NAME}` made of a name the server
 * chose: the owner of a repository names her Actions secrets, and `${AWS_SECRET_ACCESS_KEY}` would make the admin's
 * next apply write the admin's own environment value into her repository.
 */
export const UNMAPPED_SECRET = '(unmapped secret: write the variable that holds it)';

/** Whether a string is a secret as an output shows it (a plan printed as JSON, read back by the Action). */
export function isSecretDescription(text: string): boolean {
  return text === SENSITIVE || /^\(sensitive, from (\$\{[^}]*\}|"(?:[^"\\]|\\.)*")\)$/.test(text);
}

/**
 * Every value a Secret has held in this run (a command line: src/cli/program.ts's runCommand): the
 * output's second net hides them wherever they show up anyway (a server that echoes a request body in
 * an error). Values of fields that are not secret are not in it: they print as themselves, whether
 * written in the config or read from the environment. One set per run, never one for the process: a
 * run in a process that goes on (the tests' in-process runs) must not mask what an earlier run read.
 */
const runSecrets = new AsyncLocalStorage<Set<string>>();

/** Runs `fn` as one run: the Secrets made in it (and in what it awaits) are its known values, added to `values`. */
export function withSecretRegistry<T>(fn: () => T, values: Set<string> = new Set()): T {
  return runSecrets.run(values, fn);
}

const NONE: ReadonlySet<string> = new Set();

/** The values of every Secret made so far in this run (see runSecrets); none outside a run. */
export function knownSecretValues(): ReadonlySet<string> {
  return runSecrets.getStore() ?? NONE;
}

export function isSecret(value: unknown): value is Secret {
  return value instanceof Secret;
}

/** A literal written in the config, as a template: "${" is escaped so that nothing is read from the environment. */
export function literalTemplate(text: string): string {
  // A function, not the string '$${': in a replacement string "$$" stands for one "$".
  return text.replace(/\$\{/g, () => '$${');
}

/**
 * A copy of a request body with every Secret replaced by its value: the one place a secret leaves
 * its wrapper, right before the body is serialised for the server.
 */
export function revealSecrets(value: unknown): unknown {
  if (isSecret(value)) return value.reveal();
  if (Array.isArray(value)) return value.map(revealSecrets);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, revealSecrets(v)]));
  return value;
}

/**
 * The templates of the config values that read the environment, recorded while interpolating: by
 * where the value is written (exact), and by the value (for values located nowhere). A kind marks the
 * places whose field is secret (markSecret); crossUse then names every other place that reads a
 * variable a secret field reads: masking is by type, so that place would print the secret.
 */
export class SecretTemplates {
  private readonly byPlace = new Map<string, { at: SourceLocation; template: string; path: readonly (string | number)[] | undefined }>();
  private readonly byValue = new Map<string, string>();
  private readonly secretPlaces = new Set<string>();
  /** Variables a secret field reads, with where (the first such place). */
  private readonly secretVariables = new Map<string, SourceLocation | undefined>();

  /** `path`: where the value stands in its file's config (`['orgs', 'acme', 'secrets', 'X', 'value']`). */
  record(at: SourceLocation, value: string, template: string, path?: readonly (string | number)[]): void {
    this.byPlace.set(placeKey(at), { at, template, path });
    if (!this.byValue.has(value)) this.byValue.set(value, template);
  }

  /**
   * The template of the value written at `at` (of an equal value when the place is unknown); undefined
   * for a literal — even one that equals a value read elsewhere from the environment.
   */
  lookup(at: SourceLocation | undefined, value: string): string | undefined {
    return at ? this.byPlace.get(placeKey(at))?.template : this.byValue.get(value);
  }

  /** The value written at `at`, read from `template`, is a secret field's. */
  markSecret(at: SourceLocation | undefined, template: string): void {
    if (at) this.secretPlaces.add(placeKey(at));
    for (const name of templateVariables(template)) if (!this.secretVariables.has(name)) this.secretVariables.set(name, at);
  }

  /**
   * Places that are not secret fields yet read a variable a secret field reads, each with why it is refused.
   * `planned` tells the parts of the config whose kinds were planned (their secret fields marked): a place
   * elsewhere (an organisation that could not be read, a repository --target leaves out) is not judged, for
   * a secret field there was never marked, and would be named as a value that is not secret (issue 28).
   */
  crossUse(planned: (path: readonly (string | number)[]) => boolean = () => true): { at: SourceLocation; message: string }[] {
    const out: { at: SourceLocation; message: string }[] = [];
    for (const [key, { at, template, path }] of this.byPlace) {
      if (this.secretPlaces.has(key) || (path && !planned(path))) continue;
      const name = templateVariables(template).find((n) => this.secretVariables.has(n));
      if (name === undefined) continue;
      const where = this.secretVariables.get(name);
      out.push({
        at,
        message: `\${${name}} is read by a secret field${where ? ` (at ${where.file}:${where.line}:${where.col})` : ''}, so this value, which is not secret and is shown and stored as it is, must not read it: give it a variable of its own`,
      });
    }
    return out;
  }
}

function placeKey(at: SourceLocation): string {
  return `${at.file}\0${at.line}\0${at.col}`;
}

/**
 * Environment variables that neither a config nor a saved plan may read, by prefix (any case: Windows
 * reads variable names case-insensitively), with the reason. They hold forgeform's own credentials
 * and the CI runtime's tokens and settings: a value that read one would copy a credential into a field
 * anyone who can read the server (or the pull request) sees, and a masked plan would hide that it did.
 */
const RESERVED_VARIABLES: { prefix: string; holds: string }[] = [
  { prefix: 'FORGEFORM_', holds: "forgeform's own credentials and settings (FORGEFORM_TOKEN, FORGEFORM_PASSWORD, FORGEFORM_USERNAME)" },
  { prefix: 'GITHUB_', holds: "the CI runtime's token and settings (GITHUB_TOKEN)" },
  { prefix: 'GITEA_', holds: "the CI runtime's token and settings (GITEA_TOKEN)" },
  { prefix: 'FORGEJO_', holds: "the CI runtime's token and settings (FORGEJO_TOKEN)" },
  { prefix: 'ACTIONS_', holds: "the CI runner's internal tokens (ACTIONS_RUNTIME_TOKEN, ACTIONS_ID_TOKEN_REQUEST_TOKEN)" },
  { prefix: 'RUNNER_', holds: "the CI runner's own settings" },
  { prefix: 'INPUT_', holds: "the inputs of the running CI action, its token among them (INPUT_TOKEN)" },
];

/** Why `${name}` may not be read (a sentence naming the variable), or undefined when it may. */
export function reservedVariableReason(name: string): string | undefined {
  const upper = name.toUpperCase();
  const r = RESERVED_VARIABLES.find((x) => upper.startsWith(x.prefix));
  if (!r) return undefined;
  return `\${${name}} cannot be read: ${r.prefix}* variables hold ${r.holds}, and a value that read one would copy a credential to where others can read it; give the value a variable of its own`;
}

/** The variable names a template (text with ${NAME} references, $${ for a literal "${") reads. */
export function templateVariables(template: string): string[] {
  return [...template.matchAll(/\$\$\{|\$\{([^}]*)\}/g)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

/**
 * Whether a URL carries a user name or password (`https://user:pass@host`, or the same without a
 * scheme). Such a URL is refused without being repeated: credentials come from the environment.
 */
export function urlHasCredentials(url: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i.test(url.trim());
}
