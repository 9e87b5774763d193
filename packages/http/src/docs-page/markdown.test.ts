import { describe, expect, it } from 'vitest';
import { renderInline, renderMarkdown } from './markdown.js';

describe('renderMarkdown', () => {
  it.each([
    ['a paragraph', 'One line\nand the next.', '<p>One line and the next.</p>'],
    ['two paragraphs', 'First.\n\nSecond.', '<p>First.</p>\n<p>Second.</p>'],
    ['a heading, one level below the page title', '## Errors', '<h2>Errors</h2>'],
    ['a deeper heading', '### Detail', '<h3>Detail</h3>'],
    ['a list', '- one\n- `two`', '<ul><li>one</li><li><code>two</code></li></ul>'],
    ['nothing', '', ''],
  ])('%s', (_name, source, html) => {
    expect(renderMarkdown(source)).toBe(html);
  });
});

describe('renderInline', () => {
  it.each([
    ['code, escaped', 'send `<uuid>` & wait', 'send <code>&lt;uuid&gt;</code> &amp; wait'],
    ['strong', '**CSV.** With', '<strong>CSV.</strong> With'],
    ['emphasis', 'an *important* word', 'an <em>important</em> word'],
    ['a product of stars is not emphasis', '2 * 3 * 4', '2 * 3 * 4'],
    ['an unmatched backtick stays text', 'a ` b `c`', 'a <code> b </code>c`'],
    [
      'an https link',
      '[spec](https://example.com/a?b=1&c=2)',
      '<a href="https://example.com/a?b=1&amp;c=2">spec</a>',
    ],
    ['a same-site link', '[the contract](/openapi.json)', '<a href="/openapi.json">the contract</a>'],
    ['a javascript: link stays text', '[x](javascript:alert(1))', '[x](javascript:alert(1))'],
    ['a protocol-relative link stays text', '[x](//evil.example)', '[x](//evil.example)'],
  ])('%s', (_name, source, html) => {
    expect(renderInline(source)).toBe(html);
  });

  it('never lets markup through: tags, attributes and entities come out as text', () => {
    const html = renderInline('<img src=x onerror="alert(1)"> **<b>** `</code><script>` [<i>](/x)');
    expect(html).not.toMatch(/<(img|b|i|script)\b/);
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(html).toContain('<code>&lt;/code&gt;&lt;script&gt;</code>');
  });
});
