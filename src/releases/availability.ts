/**
 * Which releases have something, as data: per fork, the releases from `since` to `until` (both
 * inclusive). A fork not named lacks it; no availability at all means every release has it. One type
 * for the sandbox's tables (src/sandbox/flavours/releases.ts: which releases it plays with a field, a
 * route, a quirk) and for the kinds' (what the plan may send to a release, src/model/server.ts
 * `serverHas`), so that a fact both sides read is written once.
 */

/**
 * A release of one fork as the tables write it: "1.23" every Gitea 1.23.x, 11 or "11" every Forgejo
 * 11.x, "main" Gitea's development branch (the sandbox's idealised flavour: after every release).
 */
export type Release = string | number;

/** Releases of one fork, both bounds inclusive. */
export interface Span {
  since?: Release;
  until?: Release;
}

/** The releases that have something, per fork; a fork not named has none. Absent: every release of both. */
export interface Availability {
  gitea?: Span;
  forgejo?: Span;
}

/**
 * Releases that read the visibility of a user edit (`PATCH /admin/users/{username}`) and of an
 * organisation edit (`PATCH /orgs/{org}`) with `optional.FromNonDefault`, public being the zero value:
 * "public" is dropped. Gitea 1.22–1.23 (users: v1.23.8 `routers/api/v1/admin/user.go` l.241;
 * organisations: v1.22.6 `routers/api/v1/org/org.go` l.357, v1.23.8 l.358), where 1.24 reads it with
 * `FromMapLookup` (v1.24.7 admin/user.go l.243, org/org.go l.396) and 1.21 assigns it when not empty
 * (v1.21.11 admin/user.go l.265, org/org.go l.352); every Forgejo (admin/user.go v7.0.16 l.242,
 * v15.0.3 l.251; org/org.go v11.0.15 l.416, v15.0.3 l.416). The sandbox plays it
 * (`userEditIgnoresPublic`, `orgEditIgnoresPublic`); the user and organisation kinds plan around it.
 */
export const PUBLIC_DROPPED: Availability = { gitea: { since: '1.22', until: '1.23' }, forgejo: {} };
