/** The admin (system and default) webhooks (`models/webhook/webhook.go`), saved in the state file (part of `StateData`). */
import type { StateData } from '../../core/state.js';

/** Hook events as the `HookEvents` map stores them (event name → chosen). */
export type HookEventMap = Record<string, boolean>;

/** An admin webhook: no repository, no owner; system (every repository) or default (copied into new ones). */
export interface AdminHookRecord {
  id: number;
  type: string;
  /** Since v1.26 (trimmed, ≤ 255). */
  name: string;
  url: string;
  contentType: 'json' | 'form';
  /** Stored, never returned. */
  secret: string;
  /** Stored, read back as `""` (newest behaviour). */
  authorizationHeader: string;
  isSystem: boolean;
  active: boolean;
  branchFilter: string;
  /** API-created hooks always "choose events"; seeded or UI hooks may be push-only or send everything. */
  pushOnly: boolean;
  sendEverything: boolean;
  events: HookEventMap;
  /** Slack settings (`SlackMeta`), null for other types. */
  slack: { channel: string; username: string; iconUrl: string; color: string } | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A repository's or an organisation's webhook: the same row as an admin hook (`models/webhook/webhook.go`
 * `Webhook`), with the repository (`RepoID`) or the owner (`OwnerID`) it belongs to; the other is 0.
 */
export interface WebhookRecord extends AdminHookRecord {
  repoId: number;
  ownerId: number;
}

declare module '../../core/state.js' {
  /** The hooks domain's tables: part of the state, saved in the state file (the domain's `data`). */
  interface StateData {
    adminHooks: AdminHookRecord[];
    webhooks: WebhookRecord[];
  }
}

export type HooksData = Pick<StateData, 'adminHooks' | 'webhooks'>;

export function emptyHooksData(): HooksData {
  return { adminHooks: [], webhooks: [] };
}
