import type { AnswerHeaders } from './transport.js';
/**
 * Reading every page of a list. The list ends at the first short page, or when its full pages add up
 * exactly to X-Total-Count (a list of 100 would otherwise cost a third, empty page). Beyond that the
 * header is not trusted: a proxy or an older server may send `1`, `abc` or `100000`. A header smaller
 * than the first page, or not a count, is named in a warning and the pages are read one by one until a
 * short one; a header larger than the list only decides how many pages are fetched ahead, and the
 * short page ends the list. A later page announcing a larger total (the list grew meanwhile) is read on.
 *
 * What the exact-total stop leaves to trust: a header too low by a whole number of pages (`50` on a
 * list of 60) ends the list early, and an object past it looks missing. Missing objects are never
 * deleted (prune acts only on what was read); the harm is in what a write decides from an absence: a
 * create of one that exists (a second label or hook of that name), a rename into a name that is taken,
 * the delete of a label copy whose issues were not all read. `onTrusted` hands the page after the end
 * to the caller: the client reads it before the first write under the same parent (src/gitea/client.ts).
 * A list that does not end within a sane number of pages stops with an error instead of reading forever.
 *
 * Some routes are not paged at all on some releases (issue 19: `GET /admin/hooks` before Gitea 1.26
 * and Forgejo 15 answers every hook, with no X-Total-Count and no Link). The client never loops on
 * them: a first page holding more than the `limit` asked is the whole list (the route ignores
 * `limit`, so `page` too); a page that repeats the one before (or the first) means the route ignores
 * `page`. Then one more request with `limit` one lower tells the two cases apart (see unpagedEnd):
 * when it answers the first page again, the list is whole; when it answers one item fewer, the route
 * pages by `limit` but ignores `page`, and the list cannot be read beyond its first page: an error.
 */

export interface Page<T> {
  items: T[];
  headers: AnswerHeaders;
}

export interface PagingOptions {
  /** The `limit` asked for. */
  pageSize: number;
  /** Pages fetched ahead of the one being read, at most. */
  prefetch: number;
  /** Without a usable X-Total-Count: how many pages before giving up. */
  maxPages: number;
  warn: (message: string) => void;
  /** The error to throw when the list does not end. */
  endless: (pages: number, why: string) => Error;
  /** The error to throw when the route ignores `page` and the list holds more than its first page. */
  unpageable?: (page: number, repeats: number) => Error;
  /** Where the total comes from, for messages; default X-Total-Count. */
  totalName?: string;
  /** The list ended because its full pages added up to the total, not on a short page: `next` is the page that would prove it. */
  onTrusted?: (next: number, total: number) => void;
}

/** X-Total-Count as a count, or why it is not one. */
export function parseTotal(header: string | null): { total: number } | { invalid: string } | undefined {
  if (header === null) return undefined;
  const text = header.trim();
  if (!/^\d+$/.test(text)) return { invalid: `"${text.slice(0, 20)}" is not a count` };
  return { total: Number(text) };
}

/**
 * How many objects a list holds, from one page of it (a count query asks `limit=1`): X-Total-Count
 * when it is a count no smaller than the page, else what the page shows, which is then only a lower
 * bound. A header of `abc` must never read as "none": a label carried by issues would look free to delete.
 */
export function countOf(headers: AnswerHeaders, onPage: number): { count: number; exact: boolean } {
  const header = parseTotal(headers.get('x-total-count'));
  if (header && 'total' in header && header.total >= onPage) return { count: header.total, exact: true };
  return { count: onPage, exact: false };
}

/** The same items in the same order (a page that repeats another). */
function samePage<T>(a: T[], b: T[]): boolean {
  return a.length === b.length && a.length > 0 && JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Every item of a list, page by page. `fetchPage(page, limit)` asks one page; `limit` is only given
 * (one below the first page's size) to tell an unpaged route from one that ignores `page` alone.
 */
export async function readAllPages<T>(fetchPage: (page: number, limit?: number) => Promise<Page<T>>, opts: PagingOptions): Promise<T[]> {
  const name = opts.totalName ?? 'X-Total-Count';
  const first = await fetchPage(1);
  // More than asked: the route ignores `limit` (an unpaged list): it is whole, and page 2 would repeat it.
  if (first.items.length > opts.pageSize) return [...first.items];
  const items = [...first.items];
  const header = parseTotal(first.headers.get('x-total-count'));
  let total: number | undefined;
  if (header && 'invalid' in header) opts.warn(`${name} ${header.invalid}; reading the pages one by one until a short one`);
  else if (header && header.total < first.items.length)
    opts.warn(`${name} says ${header.total} but the first page holds ${first.items.length}; reading the pages one by one until a short one`);
  else if (header) total = header.total;

  // Gitea caps `limit` at MAX_RESPONSE_ITEMS: a first page shorter than asked while more are
  // announced tells the server's real page size.
  let pageSize = opts.pageSize;
  if (total !== undefined && first.items.length > 0 && first.items.length < pageSize && total > first.items.length) pageSize = first.items.length;
  if (first.items.length < pageSize) return items;
  const trusted = (next: number) => {
    opts.onTrusted?.(next, total!);
    return items;
  };
  if (items.length === total) return trusted(2);

  let announced = total === undefined ? undefined : Math.ceil(total / pageSize);
  const maxPages = announced === undefined ? opts.maxPages : Math.max(10 * announced, 10);
  const pending = new Map<number, Promise<Page<T>>>();
  const start = (page: number) => {
    const p = fetchPage(page);
    // Pages fetched ahead of a short page are dropped; their failures must not go unhandled.
    p.catch(() => undefined);
    pending.set(page, p);
  };
  let previous = first.items;
  for (let page = 2; ; page++) {
    if (page > maxPages)
      throw opts.endless(
        maxPages,
        announced === undefined ? `without a usable ${name}` : `while ${name} announced ${total} (${announced} page${announced === 1 ? '' : 's'})`,
      );
    const ahead = announced === undefined ? page : Math.min(Math.max(page, announced), page + opts.prefetch - 1);
    for (let p = page; p <= ahead; p++) if (!pending.has(p)) start(p);
    const current = await pending.get(page)!;
    pending.delete(page);
    const repeats = samePage(current.items, previous) ? page - 1 : samePage(current.items, first.items) ? 1 : undefined;
    if (repeats !== undefined) return unpagedEnd(fetchPage, first.items, page, repeats, total, opts);
    previous = current.items;
    items.push(...current.items);
    if (current.items.length < pageSize) break;
    if (total === undefined) continue;
    // Objects created while the list is read: a later page announces more, and is read on.
    const now = parseTotal(current.headers.get('x-total-count'));
    if (now && 'total' in now && now.total > total) {
      total = now.total;
      announced = Math.ceil(total / pageSize);
    }
    if (items.length === total) return trusted(page + 1);
  }
  if (total !== undefined && items.length !== total) opts.warn(`${name} said ${total} but the list held ${items.length}`);
  return items;
}

/**
 * Page `page` repeated page `repeats`: the route ignores `page`. When a total announced more than the
 * first page, it pages by `limit` and the rest cannot be read. Otherwise one request with a `limit`
 * one lower tells whether it honours `limit` at all: an unpaged route answers the same first page
 * again (it was the whole list, which happened to hold exactly `limit` items); a route that honours
 * it answers one item fewer, and the list may go on beyond what can be read. (One higher would not
 * do: Gitea caps `limit` at MAX_RESPONSE_ITEMS, 50 by default.)
 */
async function unpagedEnd<T>(fetchPage: (page: number, limit?: number) => Promise<Page<T>>, firstItems: T[], page: number, repeats: number, total: number | undefined, opts: PagingOptions): Promise<T[]> {
  const fail = () => (opts.unpageable ? opts.unpageable(page, repeats) : opts.endless(page, `(page ${page} repeats page ${repeats})`));
  if (repeats !== 1 || page !== 2 || (total !== undefined && total > firstItems.length) || firstItems.length < 2) throw fail();
  const narrower = await fetchPage(1, firstItems.length - 1);
  if (narrower.items.length < firstItems.length) throw fail();
  return [...firstItems];
}

/**
 * Pages `from`..`to` of a list in order, `window` at a time, until the first short page: a total
 * (X-Total-Count) only bounds how far to read, it never makes pages past the list's end fetched
 * (issue 18: an inflated total was trusted, one request per page it announced, all at once).
 */
export async function readPagesUpTo<T>(fetchPage: (page: number) => Promise<Page<T>>, from: number, to: number, pageSize: number, window: number): Promise<T[]> {
  const items: T[] = [];
  const pending = new Map<number, Promise<Page<T>>>();
  for (let page = from; page <= to; page++) {
    for (let p = page; p <= Math.min(to, page + window - 1); p++) {
      if (pending.has(p)) continue;
      const ahead = fetchPage(p);
      // Pages fetched ahead of a short page are dropped; their failures must not go unhandled.
      ahead.catch(() => undefined);
      pending.set(p, ahead);
    }
    const current = await pending.get(page)!;
    pending.delete(page);
    items.push(...current.items);
    if (current.items.length < pageSize) break;
  }
  return items;
}
