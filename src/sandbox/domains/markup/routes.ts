/**
 * Rendering and repository templates (`routers/api/v1/misc/{markup,gitignore,licenses}.go`,
 * `routers/common/markup.go`): `POST /markdown`, `/markdown/raw`, `/markup` (token required, no
 * scope), `GET /gitignore/templates[/{name}]`, `GET /licenses[/{name}]`.
 */
import { reqToken } from '../../http/auth.js';
import { bind, notFound, formOf } from '../../http/checks.js';
import type { ApiContext } from '../../http/context.js';
import { goPathEscape, json } from '../../http/respond.js';
import type { ApiRouter } from '../../http/router.js';
import { MARKDOWN_EXTENSIONS, renderMarkdown, sniffContentType } from './markdown.js';
import { GITIGNORE_TEMPLATES, gitignoreNames, LICENSE_TEMPLATES, licenseNames } from './repo-templates.js';
import { MarkdownOption, MarkupOption } from './options.js';

/**
 * The rendered document as written by the handler: no Content-Type of its own, so Go's server
 * sniffs one (and sets none for an empty body).
 */
function rendered(html: string): Response {
  if (html === '') return new Response(null, { status: 200 });
  return new Response(html, { status: 200, headers: { 'Content-Type': sniffContentType(html) } });
}

/** `ctx.Error(status, text)` of `context.Base`: Go's `http.Error`, plain text. */
function httpError(status: number, text: string): Response {
  return new Response(`${text}\n`, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } });
}

/** `Links.Base`: the current host URL followed by the `Context` path. */
function linkBase(ctx: ApiContext, context: string): string | undefined {
  if (!context) return undefined;
  const host = ctx.root.replace(/\/$/, '');
  return `${host}${context.startsWith('/') ? '' : '/'}${context}`;
}

/** `common.RenderMarkup`. */
function renderMarkup(ctx: ApiContext, mode: string, text: string, context: string, filePath: string): Response {
  const base = linkBase(ctx, context);
  if (mode === '' || mode === 'markdown') return rendered(renderMarkdown(text, { base }));
  if (!['gfm', 'comment', 'wiki', 'file'].includes(mode)) return httpError(422, `Unknown mode: ${mode}`);
  if (mode === 'file') {
    const dot = filePath.lastIndexOf('.');
    const ext = dot >= 0 && dot > filePath.lastIndexOf('/') ? filePath.slice(dot).toLowerCase() : '';
    if (!MARKDOWN_EXTENSIONS.includes(ext)) return httpError(422, `Unsupported render extension: ${ext}`);
  }
  return rendered(renderMarkdown(text, { base, hardBreaks: mode === 'comment' }));
}

export function registerMarkupRoutes(r: ApiRouter): void {
  r.on('POST', '/markup', reqToken, bind(MarkupOption), (ctx) => {
    const f = formOf(ctx, MarkupOption);
    return renderMarkup(ctx, f.Mode ?? '', f.Text ?? '', f.Context ?? '', f.FilePath ?? '');
  });

  r.on('POST', '/markdown', reqToken, bind(MarkdownOption), (ctx) => {
    const f = formOf(ctx, MarkdownOption);
    // Only comment and gfm are kept; anything else renders as plain markdown.
    const mode = f.Mode === 'comment' || f.Mode === 'gfm' ? f.Mode : 'markdown';
    return renderMarkup(ctx, mode, f.Text ?? '', f.Context ?? '', '');
  });

  // The request body is the raw document, whatever its Content-Type.
  r.on('POST', '/markdown/raw', reqToken, (ctx) => rendered(renderMarkdown(ctx.rawBody)));

  r.on('GET', '/gitignore/templates', () => json(200, gitignoreNames()));
  r.on('GET', '/gitignore/templates/:name', (ctx) => {
    const name = ctx.params.name ?? '';
    const source = Object.hasOwn(GITIGNORE_TEMPLATES, name) ? GITIGNORE_TEMPLATES[name] : undefined;
    return source === undefined ? notFound(ctx) : json(200, { name, source });
  });

  const licenseUrl = (ctx: ApiContext, name: string): string => `${ctx.root}api/v1/licenses/${goPathEscape(name)}`;
  r.on('GET', '/licenses', (ctx) => json(200, licenseNames().map((name) => ({ key: name, name, url: licenseUrl(ctx, name) }))));
  r.on('GET', '/licenses/:name', (ctx) => {
    const name = ctx.params.name ?? '';
    const body = Object.hasOwn(LICENSE_TEMPLATES, name) ? LICENSE_TEMPLATES[name] : undefined;
    if (body === undefined) return notFound(ctx);
    return json(200, {
      key: name,
      name,
      url: licenseUrl(ctx, name),
      body,
      implementation: 'Create a text file (typically named LICENSE or LICENSE.txt) in the root of your source code and copy the text of the license into the file',
    });
  });
}
