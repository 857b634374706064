import { inspect } from 'node:util';
import type { SourceLocation } from './config/types.js';

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
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return SENSITIVE;
  }

  toJSON(): string {
    return SENSITIVE;
  }

  [Symbol.toPrimitive](): string {
    return SENSITIVE;
  }

  [inspect.custom](): string {
    return SENSITIVE;
  }
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
 * where the value is written (exact), and by the value (for values located nowhere).
 */
export class SecretTemplates {
  private readonly byPlace = new Map<string, string>();
  private readonly byValue = new Map<string, string>();

  record(at: SourceLocation, value: string, template: string): void {
    this.byPlace.set(placeKey(at), template);
    if (!this.byValue.has(value)) this.byValue.set(value, template);
  }

  /**
   * The template of the value written at `at` (of an equal value when the place is unknown); undefined
   * for a literal — even one that equals a value read elsewhere from the environment.
   */
  lookup(at: SourceLocation | undefined, value: string): string | undefined {
    return at ? this.byPlace.get(placeKey(at)) : this.byValue.get(value);
  }
}

function placeKey(at: SourceLocation): string {
  return `${at.file}\0${at.line}\0${at.col}`;
}

/**
 * The forms of a value that a text output could contain: the value, its JSON-escaped form (a `"`,
 * `\` or newline changes under JSON.stringify), and each line of a multi-line value (a diff shows
 * them one by one). Parts shorter than `min` are left out: masking them would garble ordinary text.
 */
export function maskForms(value: string, min = 3): string[] {
  const forms = new Set<string>();
  const add = (s: string) => {
    if (s.length >= min) forms.add(s);
  };
  add(value);
  add(JSON.stringify(value).slice(1, -1));
  if (/[\r\n]/.test(value)) {
    for (const line of value.split(/\r\n|\r|\n/)) {
      add(line);
      add(line.trim());
      add(JSON.stringify(line).slice(1, -1));
    }
  }
  return [...forms];
}

/**
 * Whether a URL carries a user name or password (`https://user:pass@host`, or the same without a
 * scheme). Such a URL is refused without being repeated: credentials come from the environment.
 */
export function urlHasCredentials(url: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i.test(url.trim());
}
