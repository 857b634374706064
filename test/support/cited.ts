/**
 * Release facts the suites expect, each read from the releases' tagged source (tag, file:line) and kept here, apart
 * from the sandbox's own tables (src/sandbox/flavours/releases.ts): the conformance facts (test/conformance) check the
 * sandbox against them, and the flavour matrix (test/matrix) takes its expectations from them. A wrong entry in the
 * sandbox's tables then fails a test instead of moving the sandbox and the expectation together (issue 29).
 */
import type { Availability } from '../../src/releases/availability.js';

export interface Cited {
  /** The releases the fact holds on. */
  on: Availability;
  /** Where it was read. */
  cite: string;
}

/** What an edit of a user or an organisation does with `visibility: public` on the releases that drop it. */
const PUBLIC_DROPPED: Availability = { gitea: { since: '1.22', until: '1.23' }, forgejo: {} };

/** Behaviours of writes that differ between releases, by the name the sandbox's tables give them. */
export const CITED_QUIRKS = {
  userEditIgnoresPublic: {
    on: PUBLIC_DROPPED,
    cite: 'Gitea v1.22.6/v1.23.8 routers/api/v1/admin/user.go l.241 optional.FromNonDefault; v1.24.7 l.243 FromMapLookup; v1.21.11 l.265; Forgejo v7.0.16 l.242, v15.0.3 l.251',
  },
  orgEditIgnoresPublic: {
    on: PUBLIC_DROPPED,
    cite: 'Gitea v1.22.6 routers/api/v1/org/org.go l.357, v1.23.8 l.358 optional.FromNonDefault; v1.24.7 l.396 FromMapLookup; v1.21.11 l.352; Forgejo v11.0.15 l.416',
  },
  orgEditEmailNotStored: {
    on: { gitea: { until: '1.21' } },
    cite: 'Gitea v1.21.11 routers/api/v1/org/org.go l.348 and l.358–361 (no email column); v1.22.6 l.345–346 ReplacePrimaryEmailAddress',
  },
  userEmailChangeKeepsOld: {
    on: { gitea: { until: '1.24' }, forgejo: {} },
    cite: 'Gitea v1.24.7 services/user/email.go l.36–45 (AdminAddOrSetPrimaryEmailAddress), v1.25.4 l.40–47 (ReplacePrimaryEmailAddress), v1.21.11 models/user/user.go l.839–845; Forgejo v15.0.3 services/user/email.go l.40–49',
  },
  renameNonLocalUserFails: {
    on: { gitea: {}, forgejo: { until: 12 } },
    cite: 'Gitea v1.25.4 services/user/user.go l.35–44 + routers/api/v1/admin/user.go l.482–487; Forgejo v11.0.15 services/user/user.go l.49–54; v13.0.0 l.51–53 (AdminRenameUser)',
  },
  adminHooksListType: {
    on: { gitea: { since: '1.24' } },
    cite: 'Gitea v1.24.0 routers/api/v1/admin/hooks.go l.53 ctx.FormString("type"); v1.23.8 l.41 and Forgejo v7.0.16 l.40 GetSystemWebhooks',
  },
} as const satisfies Record<string, Cited>;

export type CitedQuirk = keyof typeof CITED_QUIRKS;

/** Hook events a release's create sets (others it drops), of those that differ between releases. */
export const CITED_HOOK_EVENTS = {
  package: { on: { gitea: { since: '1.23' }, forgejo: { since: 14 } }, cite: 'Gitea v1.23.8 routers/api/v1/utils/hook.go l.208; v1.22.6 addHook l.160–210 without it; Forgejo v14.0.0 and v15.0.3 l.213 (none in v13.0.0)' },
  status: { on: { gitea: { since: '1.23' } }, cite: 'Gitea v1.23.8 routers/api/v1/utils/hook.go l.209; v1.22.6 addHook without it; no Forgejo tag sets it' },
  workflow_job: { on: { gitea: { since: '1.24' } }, cite: 'Gitea v1.24.7 routers/api/v1/utils/hook.go l.176 (updateHookEvents); v1.23.8 addHook without it; no Forgejo tag sets it' },
} as const satisfies Record<string, Cited>;

/** Of those, the ones a release's hook edit sets too (an edit that lists none keeps the stored value). */
export const CITED_HOOK_EDIT_EVENTS = {
  package: { on: { gitea: { since: '1.24' } }, cite: 'Gitea v1.24.7 routers/api/v1/utils/hook.go l.372 (editHook → updateHookEvents); v1.23.8 editHook l.361–392 lists none of them; Forgejo v15.0.3 l.328–399 likewise' },
  status: { on: { gitea: { since: '1.24' } }, cite: 'Gitea v1.24.7 routers/api/v1/utils/hook.go l.372 (editHook → updateHookEvents); v1.23.8 editHook l.361–392 does not set it' },
  workflow_job: { on: { gitea: { since: '1.24' } }, cite: 'Gitea v1.24.7 routers/api/v1/utils/hook.go l.372 (editHook → updateHookEvents)' },
} as const satisfies Record<keyof typeof CITED_HOOK_EVENTS, Cited>;
