/**
 * `context.RedirectToUser` (`services/context/base.go` + Go's `http.Redirect`): a `{username}`
 * that exists only as a rename redirect answers 307 with `Location` = the request path (as
 * received, escaped) with the first occurrence of the escaped old name replaced by the new name,
 * the query kept. The replacement is a plain substring replace of the whole path, exactly as
 * Gitea does it (`strings.Replace(EscapedPath, PathEscape(old), PathEscape(new), 1)`).
 */
import type { ApiContext } from './context.js';
import { goPathEscape, plainText } from './respond.js';
import type { UserRecord } from '../core/state.js';

/** Go's `path.Clean` (enough for absolute URL paths). */
function cleanPath(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

function htmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
}

export function redirectToUser(ctx: ApiContext, oldName: string, user: UserRecord): Response {
  // Limited and private users are not revealed to anonymous callers (`http.Error` text).
  if (user.visibility !== 'public' && !ctx.doer) {
    return plainText(404, 'user does not exist\n', { 'X-Content-Type-Options': 'nosniff' });
  }
  const path = ctx.rawPath.replace(goPathEscape(oldName), () => goPathEscape(user.name));
  const raw = new URL(ctx.c.req.url).search;
  const location = cleanPath(path) + raw;
  const headers: Record<string, string> = { Location: location };
  if (ctx.method === 'GET') {
    headers['Content-Type'] = 'text/html; charset=utf-8';
    // HEAD is served by the GET route: the body is dropped by the server.
    return new Response(`<a href="${htmlEscape(location)}">Temporary Redirect</a>.\n\n`, { status: 307, headers });
  }
  return new Response(null, { status: 307, headers });
}
