// The types the webhook kinds are defined with (defineKind), apart from their modules so that each imports them without a cycle.
import type { OrgConfig, RepoConfig } from '../../config/types.js';
import type { KindTypes } from '../../model/index.js';
import type { ServerHook } from '../hook/read.js';

/** What a repository's or an organisation's config says of webhooks (the two sections are alike). */
export type WebhookSection = Pick<RepoConfig & OrgConfig, 'webhooks'>;

/** What the webhook kinds are typed by: the webhooks section of their scope, a hook as answered (the admin hooks' shape), no lookups, no state per run. */
export type WebhookTypes = KindTypes<WebhookSection, ServerHook>;
