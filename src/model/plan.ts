import type { Flavour } from './server.js';
/** replace = delete and create in one change, for what the server cannot edit in place. */
export type Action = 'create' | 'update' | 'delete' | 'rename' | 'replace';

export interface FieldChange {
  path: string;
  before?: unknown;
  after?: unknown;
  sensitive?: boolean;
  /** Shown shortened in text and markdown (FieldSpec.abbreviated); the value itself is whole. */
  abbreviated?: boolean;
  /** Cannot be read back: sent, never compared. */
  writeOnly?: boolean;
  /** A set whose elements are added and removed one request each (FieldSpec.perElement): shown element by element. */
  elements?: boolean;
  /**
   * Not a field of the object: a value the change's requests depend on (an organisation's owner, a
   * user's purge). Shown with the change, never compared, and given back to the kind at apply.
   */
  context?: boolean;
  /**
   * plan --explain: where the configuration sets the value (`conf/base.yaml:7:14 (repos."acme/*")`), the entry that
   * wins when globs and an exact entry both do. Display only: never written to a plan file.
   */
  source?: string;
}

export interface Op {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to /api/v1, segments already percent-encoded. */
  path: string;
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  /** Why this op exists when a change needs more than one request (the server forces it). */
  reason?: string;
  /** What an error status means for this op, in the user's words (e.g. 409 → "changed since plan"). */
  onStatus?: Record<string, string>;
  /**
   * A read that must find the object as the change saw it: each named field of the answer (as the
   * kind reads it) still equals the change's `before`, else the change fails with `message` before its
   * next request. forgeform's own check where the server has no lock (issue bodies before Gitea 1.26).
   */
  expect?: { fields: string[]; message: string };
  /**
   * Sending it twice does what sending it once does (a PATCH that sets values): a lost answer or a
   * 5xx sends it again, as a read is, instead of failing the change (src/gitea/retry.ts).
   */
  idempotent?: boolean;
  /**
   * Where the lists this write may rest on live, when its path does not say (the client proves those of
   * them that ended on X-Total-Count first): a team addressed by id (`teams/7`) is decided from its
   * organisation's team list (`orgs/acme/teams`), not from every list under the API's root. Default: the
   * parent of the collection written to (src/gitea/client.ts writeParent).
   */
  restsOn?: string;
}

export interface Change {
  id: string;
  kind: string;
  /** Scope type and name, e.g. repo:acme/widgets. */
  scope: string;
  key: string;
  action: Action;
  /** Old identity of a rename. */
  from?: string;
  fields: FieldChange[];
  precondition: {
    digest: string | null;
    /** How many other objects the change affects as the server was read (issues that carry a deleted label). */
    affects?: number;
  };
  depends_on: string[];
  ops: Op[];
  notes?: string[];
}

/**
 * The safety policy a plan was made with (policy.* of the config, defaults filled in): the engine's
 * entries here; the kinds' own (KindMeta.policy) are declared by each kind, merged into this interface.
 */
export interface PlanPolicy {
  prune: string[];
  max_deletes: number;
  max_delete_fraction: number;
  /** The apply lock's organisation (src/lock/lock.ts), when the config names one other than forgeform-lock. */
  apply_lock?: string;
}

/** A plan is applied only to the server and release it was read from: fields and requests depend on the release. */
export interface PlanServer {
  url: string;
  flavour?: Flavour;
  version?: string;
  /** The release was given with --server-version, not detected. */
  assumed?: boolean;
}

export interface Plan {
  format_version: 1;
  forgeform_version: string;
  created_at: string;
  /** The server the plan was made for: its URL, and the release it runs (absent when the plan was made without a preflight). */
  server: PlanServer;
  config_digest: string;
  summary: { create: number; update: number; delete: number; rename: number; replace: number };
  policy: PlanPolicy;
  unsafe: string[];
  warnings: string[];
  /**
   * Differences from the configuration this plan names but does not change (duplicates of a declared
   * label that a human must merge, or that policy.prune would remove). They count as changes for
   * --detailed-exitcode. Absent when there are none.
   */
  drift?: string[];
  /**
   * Declared objects this plan leaves out for a problem of their own (a label they use has copies on
   * the server), each as `place: resource: problem: what to do`. The rest of the plan is made; plan
   * and apply exit 1 while there are any. Absent when there are none.
   */
  withheld?: string[];
  /**
   * Objects the server has in a managed scope (one whose config declares the kind) that the config does
   * not declare, kept because policy.prune does not list their kind: "No changes" says the declared
   * objects match, and these say what else is there. Absent when there are none.
   */
  kept?: KeptObjects[];
  /**
   * The environment variables the configuration read (their names, never their values). Plan masks every value a
   * config reads in every output, whatever field reads it; a saved plan keeps a value that is not secret as it is,
   * so apply and show of the file read these variables again to mask their values as plan did (issue 28). Absent
   * when the configuration read none.
   */
  reads?: string[];
  changes: Change[];
}

/** The objects of one kind in one scope that the config does not declare and policy keeps (Plan.kept). */
export interface KeptObjects {
  /** The scope id (`repo:acme/widgets`, `server:`). */
  scope: string;
  kind: string;
  /** The entry of policy.prune that would delete them. */
  prune_key: string;
  /** Their names, as the server has them. */
  keys: string[];
}
