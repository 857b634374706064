/**
 * Paging as `routers/api/v1/utils/page.go` and `services/context/api.go` do it:
 * `page` ≤ 0 → 1, `limit` ≤ 0 → 30, `limit` > 50 → 50; `X-Total-Count`; `Link` with next, last,
 * first, prev joined by "," without a space, each URL being ROOT_URL + the request URI with `page`
 * replaced (the query re-encoded the way Go's `url.Values.Encode` does: keys sorted).
 */
import type { ApiContext } from './context.js';
import { goQueryEscape } from './respond.js';

export const DEFAULT_PAGING_NUM = 30;
export const MAX_RESPONSE_ITEMS = 50;

/** `ctx.FormInt`: Go's `strconv.Atoi`, 0 on anything else. */
export function formInt(query: URLSearchParams, key: string): number {
  const v = query.get(key) ?? '';
  return /^[+-]?\d+$/.test(v) ? Number(v) : 0;
}

export interface ListOptions {
  page: number;
  pageSize: number;
}

export function listOptions(ctx: ApiContext): ListOptions {
  let page = formInt(ctx.query, 'page');
  if (page <= 0) page = 1;
  let pageSize = formInt(ctx.query, 'limit');
  if (pageSize <= 0) pageSize = DEFAULT_PAGING_NUM;
  else if (pageSize > MAX_RESPONSE_ITEMS) pageSize = MAX_RESPONSE_ITEMS;
  return { page, pageSize };
}

export function paginate<T>(items: readonly T[], opts: ListOptions): T[] {
  const start = (opts.page - 1) * opts.pageSize;
  return items.slice(start, start + opts.pageSize);
}

function exposeHeader(ctx: ApiContext, name: string): void {
  const cur = ctx.headers['Access-Control-Expose-Headers'];
  ctx.headers['Access-Control-Expose-Headers'] = cur ? `${cur}, ${name}` : name;
}

export function setTotalCountHeader(ctx: ApiContext, total: number): void {
  ctx.headers['X-Total-Count'] = String(total);
  exposeHeader(ctx, 'X-Total-Count');
}

/** Go's `url.Values.Encode`: keys sorted, values in order, QueryEscape'd. */
function encodeQuery(params: URLSearchParams): string {
  const keys = [...new Set(params.keys())].sort();
  return keys.flatMap((k) => params.getAll(k).map((v) => `${goQueryEscape(k)}=${goQueryEscape(v)}`)).join('&');
}

export function setLinkHeader(ctx: ApiContext, total: number, pageSize: number): void {
  const size = pageSize <= 0 ? 1 : pageSize;
  const totalPages = total === 0 ? 1 : Math.ceil(total / size);
  let current = formInt(ctx.query, 'page');
  if (current <= 0) current = 1;
  if (current > totalPages) current = totalPages;
  const hasNext = total > current * size;
  const isLast = total === 0 ? true : total > (current - 1) * size && !hasNext;
  const link = (page: number, rel: string): string => {
    const q = new URLSearchParams(ctx.query);
    q.set('page', String(page));
    return `<${ctx.root}${ctx.rawPath.slice(1)}?${encodeQuery(q)}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (hasNext) links.push(link(current + 1, 'next'));
  if (!isLast) links.push(link(totalPages, 'last'));
  if (current !== 1) links.push(link(1, 'first'));
  if (current > 1) links.push(link(current - 1, 'prev'));
  if (links.length > 0) {
    ctx.headers['Link'] = links.join(',');
    exposeHeader(ctx, 'Link');
  }
}
