/**
 * What a flavour has, so that each flavour's config uses exactly what that release has — nothing here names a
 * release. Fields and routes from the sandbox's availability data, which test/unit/swagger-tables.test.ts checks
 * against each tag's own swagger; behaviours and hook events from the cited facts of test/support/cited.ts, which the
 * conformance suite checks the sandbox against — never from the sandbox's own table of them, so that a wrong entry
 * there cannot change the expectation with it.
 */
import { readFileSync } from 'node:fs';
import type { Flavour } from '../../src/sandbox/index.js';
import { ANSWER_FIELDS, available, REQUEST_FIELDS, ROUTES } from '../../src/sandbox/flavours/releases.js';
import { CITED_HOOK_EDIT_EVENTS, CITED_HOOK_EVENTS, CITED_QUIRKS, type CitedQuirk } from '../support/cited.js';

export const field = (flavour: Flavour, struct: string, key: string): boolean => available(flavour, REQUEST_FIELDS[struct]?.[key]);
export const route = (flavour: Flavour, methodAndPath: string): boolean => available(flavour, ROUTES[methodAndPath]);
export const quirk = (flavour: Flavour, name: CitedQuirk): boolean => available(flavour, CITED_QUIRKS[name].on);
export const hookEvent = (flavour: Flavour, event: keyof typeof CITED_HOOK_EVENTS): boolean => available(flavour, CITED_HOOK_EVENTS[event].on);
/** Whether the release's hook edit sets the event (one it creates with but does not edit keeps its stored value). */
export const hookEditEvent = (flavour: Flavour, event: keyof typeof CITED_HOOK_EDIT_EVENTS): boolean => hookEvent(flavour, event) && available(flavour, CITED_HOOK_EDIT_EVENTS[event].on);
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
