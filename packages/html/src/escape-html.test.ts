import { expect, it } from 'vitest';
import { escapeHtml } from './escape-html.js';

it.each([
  ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
  ['" onmouseover="x', '&quot; onmouseover=&quot;x'],
  ["' autofocus='", '&#39; autofocus=&#39;'],
  ['Tom & Jerry', 'Tom &amp; Jerry'],
  ['&amp;', '&amp;amp;'],
  ['Zürich, 14:30 — plain text', 'Zürich, 14:30 — plain text'],
])('%j is written %j', (text, html) => {
  expect(escapeHtml(text)).toBe(html);
});
