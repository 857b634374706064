/**
 * What a flavour has, asked of the sandbox's own availability data (src/sandbox/flavours/releases.ts)
 * and of forgeform's config schema, so that each flavour's config uses exactly what that release
 * has — nothing here names a release.
 */
import { readFileSync } from 'node:fs';
import type { Flavour } from '../../src/sandbox/index.js';
import { ANSWER_FIELDS, available, hasQuirk, HOOK_EDIT_EVENTS, HOOK_EVENTS, REQUEST_FIELDS, ROUTES, type Quirk } from '../../src/sandbox/flavours/releases.js';

export const field = (flavour: Flavour, struct: string, key: string): boolean => available(flavour, REQUEST_FIELDS[struct]?.[key]);
export const route = (flavour: Flavour, methodAndPath: string): boolean => available(flavour, ROUTES[methodAndPath]);
export const quirk = (flavour: Flavour, name: Quirk): boolean => hasQuirk(flavour, name);
export const hookEvent = (flavour: Flavour, event: string): boolean => available(flavour, HOOK_EVENTS[event]);
/** Whether the release's hook edit sets the event (one it creates with but does not edit keeps its stored value). */
export const hookEditEvent = (flavour: Flavour, event: string): boolean => hookEvent(flavour, event) && available(flavour, HOOK_EDIT_EVENTS[event]);
export const answerKey = (flavour: Flavour, struct: string, key: string): boolean => available(flavour, ANSWER_FIELDS[struct]?.[key]);

/**
 * The config keys the schema declares for one object of a kind (`definitions.<name>.properties`), as
 * assembled from the kinds' field definitions (the kind is named for the reader: definitions are unique).
 */
export function configKeys(_kind: string, definition: string): Set<string> {
  const schema = JSON.parse(readFileSync(new URL('../../schemas/forgeform.schema.json', import.meta.url), 'utf8')) as { definitions: Record<string, { properties: Record<string, unknown> }> };
  return new Set(Object.keys(schema.definitions[definition]?.properties ?? {}));
}

/** Branch protection fields some releases lack, that the config can name: the protections scenario's version-gated fields. */
export function gatedProtectionFields(): string[] {
  const keys = configKeys('branch-protection', 'branch_protection');
  return Object.keys(REQUEST_FIELDS.CreateBranchProtectionOption ?? {}).filter((k) => keys.has(k));
}

/** The version in the server's own words, without a build suffix: `11.0.15`, `1.25.4`. */
export const versionCore = (flavour: Flavour): string => flavour.version.replace(/\+.*$/, '');
