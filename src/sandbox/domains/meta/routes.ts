/**
 * Public endpoints: `/version`, `/settings/api` (behavior.md §9). No token needed — but a wrong
 * credential is still 401 (the router authenticates every route).
 */
import { json } from '../../http/respond.js';
import { DEFAULT_PAGING_NUM, MAX_RESPONSE_ITEMS } from '../../http/paging.js';
import type { ApiRouter } from '../../http/router.js';
import { defaultFlavor } from '../../flavors/flavor.js';

/** The version of the default flavour (`gitea@main`): looks like a Gitea version and says what it is. */
export const SANDBOX_VERSION = defaultFlavor().version;

export function registerMiscRoutes(r: ApiRouter): void {
  r.on('GET', '/version', () => json(200, { version: r.flavor.version }));

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
