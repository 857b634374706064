/**
 * Public endpoints: `/version`, `/settings/api` (`routers/api/v1/misc/version.go`,
 * `routers/api/v1/settings/settings.go`). No token needed — but a wrong credential is still 401
 * (the router authenticates every route).
 */
import { json } from '../../http/respond.js';
import { DEFAULT_PAGING_NUM, MAX_RESPONSE_ITEMS } from '../../http/paging.js';
import type { ApiRouter } from '../../http/router.js';
import { defaultFlavour } from '../../flavours/flavour.js';
import type { SandboxState } from '../../core/state.js';

/** The version of the default flavour (`gitea@main`): looks like a Gitea version and says what it is. */
export const SANDBOX_VERSION = defaultFlavour().version;

/** Six and one months back, as Go's `AddDate(0, -n, 0)`. */
function monthsAgo(n: number): number {
  const d = new Date();
  d.setMonth(d.getMonth() - n);
  return d.getTime();
}

/**
 * `misc.NodeInfo` (Gitea v1.25.4 `routers/api/v1/misc/nodeinfo.go`, Forgejo the same with its own
 * name and links): usage with the instance defaults (`SHARE_USER_STATISTICS = true`, registration
 * open); the usage counts are `omitempty`.
 */
function nodeInfo(r: ApiRouter, state: SandboxState): Record<string, unknown> {
  const active = (since: number): number => state.data.users.filter((u) => u.lastLogin !== null && Date.parse(u.lastLogin) >= since).length;
  const drop0 = (o: Record<string, number>): Record<string, number> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== 0));
  const forgejo = r.flavour.fork === 'forgejo';
  return {
    version: '2.1',
    software: forgejo
      ? { name: 'forgejo', version: r.flavour.version, repository: 'https://codeberg.org/forgejo/forgejo.git', homepage: 'https://forgejo.org/' }
      : { name: 'gitea', version: r.flavour.version, repository: 'https://github.com/go-gitea/gitea.git', homepage: 'https://gitea.io/' },
    protocols: ['activitypub'],
    services: { inbound: [], outbound: ['rss2.0'] },
    openRegistrations: true,
    usage: {
      users: drop0({ total: state.data.users.length, activeHalfyear: active(monthsAgo(6)), activeMonth: active(monthsAgo(1)) }),
      ...drop0({ localPosts: state.data.issues.length, localComments: (state.data.comments ?? []).length }),
    },
    metadata: {},
  };
}

export function registerMiscRoutes(r: ApiRouter): void {
  if (r.federation) r.on('GET', '/nodeinfo', (ctx) => json(200, nodeInfo(r, ctx.state)));
  r.on('GET', '/version', () => json(200, { version: r.flavour.version }));

  r.on('GET', '/settings/api', () =>
    json(200, {
      max_response_items: MAX_RESPONSE_ITEMS,
      default_paging_num: DEFAULT_PAGING_NUM,
      default_git_trees_per_page: 1000,
      default_max_blob_size: 10485760,
      default_max_response_size: 104857600,
    }),
  );
}
