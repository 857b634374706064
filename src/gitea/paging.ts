import type { AnswerHeaders } from './transport.js';
/**
 * Reading every page of a list. The list ends at the first short page, whatever X-Total-Count
 * says: a proxy or an older server may send `1`, `abc` or `100000`, and trusting it would either
 * miss objects (apply then creates them again) or fetch thousands of empty pages. The header only
 * decides how many pages are fetched ahead, concurrently; without a usable one, pages are read one
 * by one. A list that does not end within a sane number of pages (a server that ignores `page`)
 * stops with an error instead of reading forever.
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
  /** Where the total comes from, for messages; default X-Total-Count. */
  totalName?: string;
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

export async function readAllPages<T>(fetchPage: (page: number) => Promise<Page<T>>, opts: PagingOptions): Promise<T[]> {
  const name = opts.totalName ?? 'X-Total-Count';
  const first = await fetchPage(1);
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

  const announced = total === undefined ? undefined : Math.ceil(total / pageSize);
  const maxPages = announced === undefined ? opts.maxPages : Math.max(10 * announced, 10);
  const pending = new Map<number, Promise<Page<T>>>();
  const start = (page: number) => {
    const p = fetchPage(page);
    // Pages fetched ahead of a short page are dropped; their failures must not go unhandled.
    p.catch(() => undefined);
    pending.set(page, p);
  };
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
    items.push(...current.items);
    if (current.items.length < pageSize) break;
  }
  if (total !== undefined && items.length !== total) opts.warn(`${name} said ${total} but the list held ${items.length}`);
  return items;
}
