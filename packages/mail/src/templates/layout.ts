import { escapeHtml } from '@travelops/html';

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/** A header value on one line: control characters and line breaks become spaces. */
export const oneLine = (text: string): string =>
  text
    .replace(CONTROL_OR_BREAK, ' ')
    .replace(/\s{2,}/g, ' ')
    .trim();

/**
 * A message is a list of blocks; one list renders both parts, so the plain text and the HTML
 * always say the same thing.
 */
export type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'details'; rows: ReadonlyArray<readonly [label: string, value: string]> }
  /** A button; `quiet`: a plain link in small print (the reminders' opt-out). */
  | { type: 'link'; intro: string; label: string; href: string; quiet?: boolean }
  | { type: 'small'; text: string };

const STYLE = {
  body: 'margin:0;padding:0;background:#f4f5f7;',
  card: 'max-width:560px;margin:0 auto;padding:24px;background:#ffffff;font:15px/1.5 -apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#1c2430;',
  heading: 'font-size:18px;margin:0 0 16px;',
  table: 'border-collapse:collapse;margin:16px 0;width:100%;',
  label: 'padding:4px 12px 4px 0;color:#5a6472;vertical-align:top;white-space:nowrap;',
  value: 'padding:4px 0;vertical-align:top;',
  button:
    'display:inline-block;padding:10px 18px;background:#0b57d0;color:#ffffff;text-decoration:none;border-radius:4px;',
  small: 'font-size:13px;color:#5a6472;',
};

/** Plain text keeps line breaks; HTML shows them as <br>. */
const html = (text: string) => escapeHtml(text).replace(/\n/g, '<br>');

function blockHtml(block: Block): string {
  switch (block.type) {
    case 'paragraph':
      return `<p>${html(block.text)}</p>`;
    case 'small':
      return `<p style="${STYLE.small}">${html(block.text)}</p>`;
    case 'details':
      return `<table role="presentation" style="${STYLE.table}">${block.rows
        .map(
          ([label, value]) =>
            `<tr><td style="${STYLE.label}">${html(label)}</td><td style="${STYLE.value}">${html(value)}</td></tr>`,
        )
        .join('')}</table>`;
    case 'link':
      return block.quiet
        ? `<p style="${STYLE.small}">${html(block.intro)} <a href="${escapeHtml(block.href)}">${html(block.label)}</a></p>`
        : `<p>${html(block.intro)}</p><p><a href="${escapeHtml(block.href)}" style="${STYLE.button}">${html(block.label)}</a></p>`;
  }
}

function blockText(block: Block): string {
  switch (block.type) {
    case 'paragraph':
    case 'small':
      return block.text;
    case 'details': {
      const width = Math.max(...block.rows.map(([label]) => label.length));
      return block.rows
        .map(
          ([label, value]) =>
            `${`${label}:`.padEnd(width + 2)}${value.replace(/\n/g, `\n${' '.repeat(width + 2)}`)}`,
        )
        .join('\n');
    }
    case 'link':
      return `${block.intro}\n${block.href}`;
  }
}

/** Both parts of a message: a small, inline-styled HTML page (mail clients drop <style>) and its text twin. */
export function render(title: string, blocks: readonly Block[]): { text: string; html: string } {
  const text = `${blocks.map(blockText).join('\n\n')}\n`;
  const body = blocks.map(blockHtml).join('\n');
  return {
    text,
    html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="${STYLE.body}"><div style="${STYLE.card}">
<h1 style="${STYLE.heading}">${escapeHtml(title)}</h1>
${body}
</div></body></html>
`,
  };
}
