/**
 * A small Markdown renderer for `/markdown`, `/markdown/raw` and `/markup`, shaped like Gitea's
 * goldmark output after its HTML sanitizer: `<p>…</p>\n`, headings with
 * `id="user-content-<slug>"`, `rel="nofollow"` on links, bare URLs linked, text escaped with
 * `&#34;`/`&#39;`. It covers headings (ATX and setext), paragraphs, emphasis, strong,
 * strikethrough, inline code, fenced and indented code blocks, links, images, autolinks,
 * block quotes, lists and thematic breaks. Raw HTML is escaped, not passed through the sanitizer,
 * and code blocks are not syntax-highlighted.
 */

/** Text as Go's `html.EscapeString` writes it (the sanitizer re-serialises text this way). */
export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&#34;').replace(/'/g, '&#39;');
}

export interface RenderOptions {
  /** Comment mode: a single newline is a hard break (`<br/>`). */
  hardBreaks?: boolean;
  /** Base URL that relative link targets are resolved against (from the request's `Context`). */
  base?: string;
}

/** Gitea's heading id: lower-case, spaces to `-`, punctuation dropped, duplicates numbered. */
function slugify(text: string, seen: Map<string, number>): string {
  let slug = text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
  const n = seen.get(slug);
  seen.set(slug, (n ?? 0) + 1);
  if (n !== undefined) slug = `${slug}-${n}`;
  return `user-content-${slug}`;
}

function resolveUrl(url: string, opts: RenderOptions): string {
  if (!opts.base || /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('#') || url.startsWith('//')) return url;
  try {
    return new URL(url.startsWith('/') ? url : url, opts.base.endsWith('/') ? opts.base : `${opts.base}/`).toString();
  } catch {
    return url;
  }
}

const SAFE_URL = /^(?:https?:|mailto:|ftp:|\/|#|\.|[^:]*$)/i;

function safeHref(url: string): string | undefined {
  return SAFE_URL.test(url) ? url : undefined;
}

/** Inline markup of one paragraph (or heading, list item …). */
function inline(src: string, opts: RenderOptions): string {
  let out = '';
  let i = 0;
  const text = (s: string): string => linkify(escapeHtml(s));
  let pending = '';
  const flush = (): void => {
    if (pending) out += text(pending);
    pending = '';
  };
  while (i < src.length) {
    const ch = src[i]!;
    const rest = src.slice(i);
    // backslash escape
    if (ch === '\\' && i + 1 < src.length && /[!-/:-@[-`{-~]/.test(src[i + 1]!)) {
      pending += src[i + 1];
      i += 2;
      continue;
    }
    // hard break: two spaces or a backslash before a newline, or any newline in comment mode
    if (ch === '\n') {
      const hard = opts.hardBreaks || /(?: {2,}|\\)$/.test(pending);
      pending = pending.replace(/ +$/, '');
      flush();
      out += hard ? '<br/>\n' : '\n';
      i++;
      while (src[i] === ' ') i++;
      continue;
    }
    if (ch === '`') {
      const m = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest);
      if (m) {
        flush();
        let code = m[2]!.replace(/\n/g, ' ');
        if (/^ .* $/.test(code) && code.trim() !== '') code = code.slice(1, -1);
        out += `<code>${escapeHtml(code)}</code>`;
        i += m[0].length;
        continue;
      }
    }
    if (ch === '!' || ch === '[') {
      const m = /^(!?)\[((?:\\.|[^\]\\])*)\]\(\s*<?([^\s)>]*)>?(?:\s+(?:"([^"]*)"|'([^']*)'))?\s*\)/.exec(rest);
      if (m) {
        flush();
        const target = resolveUrl(m[3]!, opts);
        const title = m[4] ?? m[5];
        if (m[1]) {
          const src2 = safeHref(target);
          out += `<img src="${escapeHtml(src2 ?? '')}"${title !== undefined ? ` title="${escapeHtml(title)}"` : ''} alt="${escapeHtml(m[2]!)}"/>`;
        } else {
          const href = safeHref(target);
          const label = inline(m[2]!, opts);
          out += href !== undefined ? `<a href="${escapeHtml(href)}"${title !== undefined ? ` title="${escapeHtml(title)}"` : ''} rel="nofollow">${label}</a>` : label;
        }
        i += m[0].length;
        continue;
      }
    }
    if (ch === '<') {
      const m = /^<((?:https?|ftp):\/\/[^\s<>]+|[^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/.exec(rest);
      if (m) {
        flush();
        const url = m[1]!.includes('://') ? m[1]! : `mailto:${m[1]!}`;
        out += `<a href="${escapeHtml(url)}" rel="nofollow">${escapeHtml(m[1]!)}</a>`;
        i += m[0].length;
        continue;
      }
    }
    if (ch === '~') {
      const m = /^~~(?=\S)([\s\S]*?\S)~~/.exec(rest);
      if (m) {
        flush();
        out += `<del>${inline(m[1]!, opts)}</del>`;
        i += m[0].length;
        continue;
      }
    }
    if (ch === '*' || ch === '_') {
      const c = ch === '*' ? '\\*' : '_';
      const strong = new RegExp(`^${c}${c}(?=\\S)([\\s\\S]*?\\S)${c}${c}(?!${c})`).exec(rest);
      const prevWord = ch === '_' && i > 0 && /[\p{L}\p{N}]/u.test(src[i - 1]!);
      if (strong && !prevWord) {
        flush();
        out += `<strong>${inline(strong[1]!, opts)}</strong>`;
        i += strong[0].length;
        continue;
      }
      const em = new RegExp(`^${c}(?=[^\\s${c}])([\\s\\S]*?[^\\s${c}])${c}(?!${c})`).exec(rest);
      if (em && !prevWord) {
        flush();
        out += `<em>${inline(em[1]!, opts)}</em>`;
        i += em[0].length;
        continue;
      }
    }
    pending += ch;
    i++;
  }
  flush();
  return out;
}

/** Bare URLs in (already escaped) text become links, as Gitea's linkify does. */
function linkify(escaped: string): string {
  return escaped.replace(/\b((?:https?):\/\/[^\s<]*[^\s<.,:;"')\]!?&])/g, (url) => {
    const clean = url.replace(/&amp;/g, '&');
    return `<a href="${escapeHtml(clean)}" rel="nofollow">${url}</a>`;
  });
}

interface Block {
  kind: 'p' | 'h' | 'code' | 'quote' | 'list' | 'hr';
  level?: number;
  lines: string[];
  lang?: string;
  ordered?: boolean;
  start?: number;
  items?: string[][];
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const HR = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const BULLET = /^ {0,3}([-+*])[ \t]+(.*)$/;
const ORDERED = /^ {0,3}(\d{1,9})([.)])[ \t]+(.*)$/;
const QUOTE = /^ {0,3}> ?(.*)$/;

const isBlank = (l: string | undefined): boolean => l === undefined || l.trim() === '';
const startsBlock = (l: string): boolean => FENCE.test(l) || HEADING.test(l) || HR.test(l) || QUOTE.test(l) || BULLET.test(l) || /^ {0,3}1[.)][ \t]+/.test(l);
const INDENTED = /^( {4}|\t)/;

/** Reads the block that starts at line `i` (a non-blank line): its blocks and the line after it, or undefined when the line starts another kind of block. */
type BlockReader = (lines: string[], i: number) => { blocks: Block[]; next: number } | undefined;

const readFenced: BlockReader = (lines, i) => {
  const fence = FENCE.exec(lines[i]!);
  if (!fence) return undefined;
  const marker = fence[1]!;
  const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
  const body: string[] = [];
  let j = i + 1;
  while (j < lines.length && !close.test(lines[j]!)) body.push(lines[j++]!);
  return { blocks: [{ kind: 'code', lines: body, lang: fence[2] || undefined }], next: j + 1 };
};

const readIndented: BlockReader = (lines, i) => {
  if (!INDENTED.test(lines[i]!)) return undefined;
  const body: string[] = [];
  let j = i;
  while (j < lines.length && (INDENTED.test(lines[j]!) || (isBlank(lines[j]) && INDENTED.test(lines[j + 1] ?? '')))) body.push(lines[j++]!.replace(INDENTED, ''));
  return { blocks: [{ kind: 'code', lines: body }], next: j };
};

const readHeading: BlockReader = (lines, i) => {
  const h = HEADING.exec(lines[i]!);
  return h ? { blocks: [{ kind: 'h', level: h[1]!.length, lines: [h[2] ?? ''] }], next: i + 1 } : undefined;
};

const readRule: BlockReader = (lines, i) => (HR.test(lines[i]!) ? { blocks: [{ kind: 'hr', lines: [] }], next: i + 1 } : undefined);

const readQuote: BlockReader = (lines, i) => {
  if (!QUOTE.test(lines[i]!)) return undefined;
  const body: string[] = [];
  let j = i;
  for (; j < lines.length && !isBlank(lines[j]); j++) body.push(QUOTE.exec(lines[j]!)?.[1] ?? lines[j]!);
  return { blocks: [{ kind: 'quote', lines: body }], next: j };
};

/** A list: its items, each with its indented or lazy continuation lines. */
const readList: BlockReader = (lines, i) => {
  const bullet = BULLET.exec(lines[i]!);
  const ordered = ORDERED.exec(lines[i]!);
  if (!bullet && !ordered) return undefined;
  const items: string[][] = [];
  const itemRe = bullet ? BULLET : ORDERED;
  let j = i;
  for (; j < lines.length; j++) {
    const line = lines[j]!;
    const m = itemRe.exec(line);
    if (m) items.push([bullet ? m[2]! : m[3]!]);
    else if (!isBlank(line) && /^\s+/.test(line) && items.length) items[items.length - 1]!.push(line.replace(/^\s{1,4}/, ''));
    else if (!isBlank(line) && !startsBlock(line) && items.length && !ORDERED.test(line)) items[items.length - 1]!.push(line);
    else break;
  }
  return { blocks: [{ kind: 'list', ordered: !bullet, start: ordered ? Number(ordered[1]) : undefined, items, lines: [] }], next: j };
};

/** A paragraph, or a setext heading when an `===` or `---` line underlines it. */
const readParagraph: BlockReader = (lines, i) => {
  const para: string[] = [];
  let j = i;
  for (; j < lines.length && !isBlank(lines[j]); j++) {
    const l = lines[j]!;
    const setext = para.length ? (/^ {0,3}=+\s*$/.test(l) ? 1 : /^ {0,3}-+\s*$/.test(l) ? 2 : 0) : 0;
    if (setext) return { blocks: [{ kind: 'h', level: setext, lines: [para.join('\n')] }], next: j + 1 };
    if (para.length && startsBlock(l)) break;
    para.push(l.replace(/^ {0,3}/, ''));
  }
  return { blocks: para.length ? [{ kind: 'p', lines: para }] : [], next: j };
};

/** In CommonMark's order of precedence; a paragraph takes any line the others do not. */
const BLOCK_READERS: readonly BlockReader[] = [readFenced, readIndented, readHeading, readRule, readQuote, readList, readParagraph];

function parseBlocks(lines: string[]): Block[] {
  const blocks: Block[] = [];
  let i = 0;
  while (i < lines.length) {
    if (isBlank(lines[i])) {
      i++;
      continue;
    }
    for (const read of BLOCK_READERS) {
      const found = read(lines, i);
      if (!found) continue;
      blocks.push(...found.blocks);
      i = found.next;
      break;
    }
  }
  return blocks;
}

function renderBlocks(blocks: Block[], opts: RenderOptions, seen: Map<string, number>, tight = false): string {
  let out = '';
  for (const b of blocks) {
    switch (b.kind) {
      case 'p': {
        const body = inline(b.lines.join('\n').trim(), opts);
        out += tight ? `${body}\n` : `<p>${body}</p>\n`;
        break;
      }
      case 'h': {
        const raw = (b.lines[0] ?? '').trim();
        const body = inline(raw, opts);
        const plain = body.replace(/<[^>]*>/g, '').replace(/&#34;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
        out += `<h${b.level} id="${escapeHtml(slugify(plain, seen))}">${body}</h${b.level}>\n`;
        break;
      }
      case 'hr':
        out += '<hr/>\n';
        break;
      case 'code': {
        const code = b.lines.map((l) => `${l}\n`).join('');
        const cls = b.lang ? ` class="language-${escapeHtml(b.lang)}"` : '';
        out += `<pre><code${cls}>${escapeHtml(code)}</code></pre>\n`;
        break;
      }
      case 'quote':
        out += `<blockquote>\n${renderBlocks(parseBlocks(b.lines), opts, seen)}</blockquote>\n`;
        break;
      case 'list': {
        const tag = b.ordered ? 'ol' : 'ul';
        const start = b.ordered && b.start !== undefined && b.start !== 1 ? ` start="${b.start}"` : '';
        out += `<${tag}${start}>\n`;
        for (const item of b.items ?? []) {
          const task = /^\[([ xX])\] (.*)$/s.exec(item[0] ?? '');
          const lines = task ? [task[2]!, ...item.slice(1)] : item;
          const inner = renderBlocks(parseBlocks(lines), opts, seen, true).replace(/\n$/, '');
          const box = task ? `<input type="checkbox"${task[1] === ' ' ? '' : ' checked=""'} disabled=""/>` : '';
          out += `<li>${box}${inner}</li>\n`;
        }
        out += `</${tag}>\n`;
        break;
      }
    }
  }
  return out;
}

/** Renders Markdown to HTML; an empty document renders as the empty string. */
export function renderMarkdown(src: string, opts: RenderOptions = {}): string {
  const text = src.replace(/\r\n?/g, '\n');
  if (text.trim() === '') return '';
  return renderBlocks(parseBlocks(text.split('\n')), opts, new Map());
}

/** Markdown file extensions Gitea's markdown renderer claims (`[markup.markdown] FILE_EXTENSIONS`). */
export const MARKDOWN_EXTENSIONS = ['.md', '.markdown', '.mdown', '.mkd', '.livemd'];

/**
 * Go's `http.DetectContentType` for a rendered document: the server sets no Content-Type for
 * these answers, so Go sniffs one — `text/html` only when the body starts with one of its HTML
 * signatures (`<p`, `<h1`, `<a`, `<b` …), `text/plain` otherwise (e.g. for `<h2`, `<ul`).
 */
export function sniffContentType(body: string): string {
  const s = body.replace(/^[\t\n\f\r ]+/, '');
  const sigs = ['<!DOCTYPE HTML', '<HTML', '<HEAD', '<SCRIPT', '<IFRAME', '<H1', '<DIV', '<FONT', '<TABLE', '<A', '<STYLE', '<TITLE', '<B', '<BODY', '<BR', '<P', '<!--'];
  for (const sig of sigs) {
    if (s.length > sig.length && s.slice(0, sig.length).toUpperCase() === sig && (s[sig.length] === ' ' || s[sig.length] === '>')) return 'text/html; charset=utf-8';
  }
  return 'text/plain; charset=utf-8';
}
