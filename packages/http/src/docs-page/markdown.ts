import { escapeHtml } from '@travelops/html';

/**
 * The little Markdown the OpenAPI descriptions use, as HTML: paragraphs, `#` headings, `- `
 * lists, `code`, **strong**, *emphasis* and [links](https://...). Everything is escaped first
 * and only these marks become tags, so a description can never inject markup; a link keeps
 * only an http(s), same-site (`/...`) or in-page (`#...`) address.
 */
export function renderMarkdown(source: string): string {
  return source
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '')
    .map(renderBlock)
    .join('\n');
}

function renderBlock(block: string): string {
  const heading = /^(#{1,6})\s+(.*)$/.exec(block);
  // The page owns <h1>; a description's headings start one level below it.
  if (heading) {
    const level = Math.min(6, Math.max(2, (heading[1] as string).length));
    return `<h${level}>${renderInline(heading[2] as string)}</h${level}>`;
  }
  const lines = block.split('\n');
  if (lines.every((line) => /^\s*[-*] /.test(line))) {
    const items = lines.map((line) => `<li>${renderInline(line.replace(/^\s*[-*] /, ''))}</li>`);
    return `<ul>${items.join('')}</ul>`;
  }
  return `<p>${renderInline(lines.join(' '))}</p>`;
}

/** A value as a code span of this Markdown (rendered escaped, as all text is). */
export const codeSpan = (value: unknown): string =>
  `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;

/** One line of text: code spans verbatim (escaped), emphasis and links around them. */
export function renderInline(text: string): string {
  const parts = text.split('`');
  // An unmatched backtick is text: it joins the part after it.
  if (parts.length % 2 === 0) parts.splice(-2, 2, `${parts.at(-2)}\`${parts.at(-1)}`);
  return parts
    .map((part, index) => (index % 2 === 1 ? `<code>${escapeHtml(part)}</code>` : renderProse(part)))
    .join('');
}

const SAFE_HREF = /^(https?:\/\/|\/(?!\/)|#)/;

function renderProse(text: string): string {
  return escapeHtml(text)
    .replace(/\*\*(\S(?:.*?\S)?)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[\s(])\*(\S(?:[^*]*?\S)?)\*(?=[\s.,;:)]|$)/g, '$1<em>$2</em>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (whole, label: string, href: string) =>
      // Escaping happened above: `&amp;` in an address is what the attribute needs.
      SAFE_HREF.test(href.replaceAll('&amp;', '&')) ? `<a href="${href}">${label}</a>` : whole,
    );
}
