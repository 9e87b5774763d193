import type { OpenApiDocument } from './openapi/document.js';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export const DOCS_STYLE =
  'body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}pre{background:#f5f5f5;padding:.5rem;overflow:auto}.m{background:#234;color:#fff;padding:0 .4rem;border-radius:3px}section{border-top:1px solid #ddd}';

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

const json = (value: unknown) => `<pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre>`;

interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  security: unknown[];
  parameters?: Array<{ name?: string; in?: string; required?: boolean; schema?: unknown; $ref?: string }>;
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, unknown>;
}

function renderOperation(method: string, path: string, op: Operation): string {
  const params = (op.parameters ?? [])
    .map((p) =>
      p.$ref
        ? `<li><code>Idempotency-Key</code> (header, optional UUID)</li>`
        : `<li><code>${escapeHtml(p.name ?? '')}</code> (${p.in}${p.required ? ', required' : ''}) <code>${escapeHtml(JSON.stringify(p.schema))}</code></li>`,
    )
    .join('');
  const body = op.requestBody?.content['application/json']?.schema;
  return `<section id="${op.operationId}">
<h3><span class="m">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>
<p><b>${escapeHtml(op.operationId)}</b>: ${escapeHtml(op.summary)}${op.security.length ? '' : ' <i>(no credential)</i>'}</p>
${op.description ? `<p>${escapeHtml(op.description)}</p>` : ''}
${params ? `<h4>Parameters</h4><ul>${params}</ul>` : ''}
${body ? `<h4>Request body</h4>${json(body)}` : ''}
<h4>Responses</h4><ul>${Object.keys(op.responses)
    .map((status) => `<li>${status}</li>`)
    .join('')}</ul>
</section>`;
}

/** A self-contained HTML reference (no scripts, no external assets) rendered from /openapi.json. */
export function renderDocsPage(doc: OpenApiDocument): string {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => renderOperation(method, path, op)),
  );
  const schemas = Object.entries(doc.components.schemas)
    .map(([name, schema]) => `<section id="schema-${name}"><h3>${name}</h3>${json(schema)}</section>`)
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(doc.info.title)} ${doc.info.version}</title>
<style>${DOCS_STYLE}</style>
</head><body>
<h1>${escapeHtml(doc.info.title)} <small>${doc.info.version}</small></h1>
<p>${escapeHtml(doc.info.description)}</p>
<p>Machine-readable: <a href="/openapi.json">/openapi.json</a>. Authenticated operations take <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<h2>Operations</h2>${operations.join('\n')}
<h2>Schemas</h2>${schemas}
</body></html>`;
}
