import { afterEach, describe, expect, it } from 'vitest';
import { renderMarkdown, sniffContentType } from '../../src/sandbox/domains/markup/markdown.js';
import { apiError, boot, type Harness, notFoundError } from './helpers.js';

let h: Harness;
afterEach(async () => h?.sb.close());

describe('markdown renderer', () => {
  it('renders headings with user-content ids, paragraphs, emphasis, code and links as Gitea does', () => {
    expect(renderMarkdown('## What is Wine Staging?\n**Wine Staging** on website [wine-staging.com](http://wine-staging.com).')).toBe(
      '<h2 id="user-content-what-is-wine-staging">What is Wine Staging?</h2>\n<p><strong>Wine Staging</strong> on website <a href="http://wine-staging.com" rel="nofollow">wine-staging.com</a>.</p>\n',
    );
    expect(renderMarkdown('[[Name|Link]]')).toBe('<p>[[Name|Link]]</p>\n');
    expect(renderMarkdown('')).toBe('');
    expect(renderMarkdown('*em* _also_ ~~gone~~ `a < b` "q"')).toBe('<p><em>em</em> <em>also</em> <del>gone</del> <code>a &lt; b</code> &#34;q&#34;</p>\n');
    expect(renderMarkdown('see https://example.com/x now')).toBe('<p>see <a href="https://example.com/x" rel="nofollow">https://example.com/x</a> now</p>\n');
    expect(renderMarkdown('- one\n- two\n\n1. a\n2. b')).toBe('<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n');
    expect(renderMarkdown('```go\nfmt.Println("<x>")\n```')).toBe('<pre><code class="language-go">fmt.Println(&#34;&lt;x&gt;&#34;)\n</code></pre>\n');
    expect(renderMarkdown('> quoted\n\n---\nTitle\n=====')).toBe('<blockquote>\n<p>quoted</p>\n</blockquote>\n<hr/>\n<h1 id="user-content-title">Title</h1>\n');
    expect(renderMarkdown('<script>alert(1)</script>')).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n');
    expect(renderMarkdown('a\nb', { hardBreaks: true })).toBe('<p>a<br/>\nb</p>\n');
    expect(renderMarkdown('# A\n# A')).toBe('<h1 id="user-content-a">A</h1>\n<h1 id="user-content-a-1">A</h1>\n');
  });

  it('sniffs the Content-Type as Go does: text/html only for its HTML signatures', () => {
    expect(sniffContentType('<p>x</p>\n')).toBe('text/html; charset=utf-8');
    expect(sniffContentType('<h1 id="x">x</h1>\n')).toBe('text/html; charset=utf-8');
    expect(sniffContentType('<h2 id="x">x</h2>\n')).toBe('text/plain; charset=utf-8');
    expect(sniffContentType('<ul>\n<li>x</li>\n</ul>\n')).toBe('text/plain; charset=utf-8');
  });
});

describe('POST /markdown', () => {
  it('renders MarkdownOption.Text as HTML', async () => {
    h = await boot();
    const res = await h.call('POST', 'markdown', { body: { Text: 'Hello *world*', Mode: 'gfm' } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('<p>Hello <em>world</em></p>\n');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // keys are the Go field names, matched case-insensitively
    expect((await h.call('POST', 'markdown', { body: { text: '**b**' } })).text).toBe('<p><strong>b</strong></p>\n');
    expect(h.sb.requests().every((r) => r.unknownFields.length === 0)).toBe(true);
  });

  it('uses hard line breaks in comment mode, resolves relative links against Context, empty text renders nothing', async () => {
    h = await boot();
    expect((await h.call('POST', 'markdown', { body: { Text: 'a\nb', Mode: 'comment' } })).text).toBe('<p>a<br/>\nb</p>\n');
    expect((await h.call('POST', 'markdown', { body: { Text: 'a\nb', Mode: 'wiki' } })).text).toBe('<p>a\nb</p>\n');
    const link = await h.call('POST', 'markdown', { body: { Text: '[doc](docs/x.md)', Context: '/acme/widgets/src/branch/main' } });
    expect(link.text).toBe(`<p><a href="${h.url}/acme/widgets/src/branch/main/docs/x.md" rel="nofollow">doc</a></p>\n`);
    const emptyRes = await h.call('POST', 'markdown', { body: { Text: '' } });
    expect(emptyRes.status).toBe(200);
    expect(emptyRes.text).toBe('');
  });

  it('needs a token: 401 without one', async () => {
    h = await boot();
    const res = await h.call('POST', 'markdown', { token: null, body: { Text: 'x' } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual(apiError(h, 'token is required'));
  });

  it('answers 422 to a body that does not bind', async () => {
    h = await boot();
    const res = await h.call('POST', 'markdown', { body: { Text: 5 } });
    expect(res.status).toBe(422);
    expect(res.json).toEqual(apiError(h, '[]: json: cannot unmarshal number into Go struct field MarkdownOption.Text of type string'));
    const noType = await h.call('POST', 'markdown', { rawBody: '{"Text":"x"}' });
    expect(noType.status).toBe(422);
    expect(noType.json).toEqual(apiError(h, '[]: Empty Content-Type'));
  });
});

describe('POST /markdown/raw', () => {
  it('renders the raw request body', async () => {
    h = await boot();
    const res = await h.call('POST', 'markdown/raw', { rawBody: '# Title\n\ntext', contentType: 'text/plain' });
    expect(res.status).toBe(200);
    expect(res.text).toBe('<h1 id="user-content-title">Title</h1>\n<p>text</p>\n');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
  });

  it('needs a token: 401 without one', async () => {
    h = await boot();
    const res = await h.call('POST', 'markdown/raw', { token: null, rawBody: 'x', contentType: 'text/plain' });
    expect(res.status).toBe(401);
    expect(res.json).toEqual(apiError(h, 'token is required'));
  });
});

describe('POST /markup', () => {
  it('renders markdown in the markdown, gfm, comment, wiki and file modes', async () => {
    h = await boot();
    for (const body of [{ Text: '*x*' }, { Text: '*x*', Mode: 'gfm' }, { Text: '*x*', Mode: 'comment' }, { Text: '*x*', Mode: 'wiki' }, { Text: '*x*', Mode: 'file', FilePath: 'docs/README.md' }]) {
      const res = await h.call('POST', 'markup', { body });
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.text).toBe('<p><em>x</em></p>\n');
    }
  });

  it('answers 422 in plain text to an unknown mode or a file it cannot render', async () => {
    h = await boot();
    const mode = await h.call('POST', 'markup', { body: { Text: '## Test', Mode: 'unknown' } });
    expect(mode.status).toBe(422);
    expect(mode.text).toBe('Unknown mode: unknown\n');
    expect(mode.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const file = await h.call('POST', 'markup', { body: { Text: '## Test', Mode: 'file', FilePath: 'path/test.unknown' } });
    expect(file.status).toBe(422);
    expect(file.text).toBe('Unsupported render extension: .unknown\n');
  });

  it('needs a token: 401 without one', async () => {
    h = await boot();
    const res = await h.call('POST', 'markup', { token: null, body: { Text: 'x' } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual(apiError(h, 'token is required'));
  });
});

describe('gitignore and licence templates', () => {
  it('GET /gitignore/templates lists the names in Go byte order, without authentication', async () => {
    h = await boot();
    const res = await h.call<string[]>('GET', 'gitignore/templates', { token: null });
    expect(res.status).toBe(200);
    expect(res.json).toEqual(expect.arrayContaining(['Go', 'Node', 'Python']));
    expect(res.json.indexOf('CMake')).toBeLessThan(res.json.indexOf('macOS'));
    expect(res.json).toEqual([...res.json].sort());
    expect((await h.call('GET', 'gitignore/templates', { token: null, headers: { authorization: 'token wrong' } })).status).toBe(401);
  });

  it('GET /gitignore/templates/{name} answers {name, source}; 404 for an unknown (or differently cased) name', async () => {
    h = await boot();
    const res = await h.call<{ name: string; source: string }>('GET', 'gitignore/templates/Go', { token: null });
    expect(res.status).toBe(200);
    expect(res.json.name).toBe('Go');
    expect(res.json.source).toContain('*.exe');
    const missing = await h.call('GET', 'gitignore/templates/go', { token: null });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(notFoundError(h));
  });

  it('GET /licenses lists {key, name, url} with the preferred licences first', async () => {
    h = await boot();
    const res = await h.call<{ key: string; name: string; url: string }[]>('GET', 'licenses', { token: null });
    expect(res.status).toBe(200);
    expect(res.json.slice(0, 2).map((l) => l.key)).toEqual(['Apache-2.0', 'MIT']);
    expect(res.json[0]).toEqual({ key: 'Apache-2.0', name: 'Apache-2.0', url: `${h.url}/api/v1/licenses/Apache-2.0` });
    const rest = res.json.slice(2).map((l) => l.key);
    expect(rest).toEqual([...rest].sort());
    expect(rest).toContain('GPL-3.0');
  });

  it('GET /licenses/{name} answers the licence with its body; 404 for an unknown name', async () => {
    h = await boot();
    const res = await h.call<Record<string, string>>('GET', 'licenses/MIT', { token: null });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ key: 'MIT', name: 'MIT', url: `${h.url}/api/v1/licenses/MIT` });
    expect(res.json.body).toMatch(/^MIT License/);
    expect(res.json.implementation).toMatch(/^Create a text file/);
    const missing = await h.call('GET', 'licenses/WTFPL-9', { token: null });
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual(notFoundError(h));
  });
});
