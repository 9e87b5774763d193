import { escapeHtml } from '@travelops/html';
import { dereference, type JsonRecord, listOf, recordOf, textOf } from './json.js';
import { codeSpan, renderInline, renderMarkdown } from './markdown.js';
import { describeSchema, fieldsOf, renderFields } from './schema-fields.js';
import { REFERENCE_STYLE } from './style.js';

/** Where the reference lives; a tag's page is `/docs/<its slug>`. */
export const DOCS_PATH = '/docs';

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Every answer carries these (docs/api.md says so once): listing them under each would be noise. */
const COMMON_HEADERS = new Set([
  'x-request-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
]);
const CREDENTIALS: Record<string, string> = { bearerAuth: 'an API token', sessionCookie: 'a session' };

interface Operation {
  id: string;
  method: string;
  /** The path, or for a webhook the event it announces. */
  path: string;
  webhook: boolean;
  item: JsonRecord;
  operation: JsonRecord;
}

interface Tag {
  name: string;
  slug: string;
  description: string;
  operations: Operation[];
}

/** The reference as HTML pages: the overview at `/docs`, one page per tag, by slug. */
export interface ReferencePages {
  index: string;
  tags: ReadonlyMap<string, string>;
}

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function operationsOf(paths: unknown, webhook: boolean): Operation[] {
  return Object.entries(recordOf(paths)).flatMap(([path, value]) => {
    const item = recordOf(value);
    return METHODS.filter((method) => item[method] !== undefined).map((method) => {
      const operation = recordOf(item[method]);
      return {
        id: textOf(operation.operationId) || slugOf(`${method} ${path}`),
        method,
        path,
        webhook,
        item,
        operation,
      };
    });
  });
}

/** Operations grouped by their first tag, in the document's tag order (untagged ones last). */
function tagsOf(document: JsonRecord): Tag[] {
  const tags = new Map<string, Tag>();
  const add = (name: string, description = '') => {
    if (!tags.has(name)) tags.set(name, { name, slug: slugOf(name) || 'other', description, operations: [] });
    return tags.get(name) as Tag;
  };
  for (const tag of listOf(document.tags)) add(textOf(recordOf(tag).name), textOf(recordOf(tag).description));
  for (const operation of [
    ...operationsOf(document.paths, false),
    ...operationsOf(document.webhooks, true),
  ]) {
    add(textOf(listOf(operation.operation.tags)[0]) || 'Other').operations.push(operation);
  }
  return [...tags.values()].filter((tag) => tag.operations.length > 0);
}

/** Builds every page once; each is a string the router sends as it is. */
export function buildReferencePages(openApi: object): ReferencePages {
  const document = recordOf(openApi);
  const info = recordOf(document.info);
  const title = textOf(info.title) || 'API';
  const version = textOf(info.version);
  const tags = tagsOf(document);
  const page = (heading: string, current: string | null, body: string) =>
    layout({ title, version, heading, current, tags, body });

  const overview = [
    `<h1>${escapeHtml(title)} <small>${escapeHtml(version)}</small></h1>`,
    renderMarkdown(textOf(info.description)),
    securityOf(document),
    '<h2 id="operations">Operations</h2>',
    ...tags.map(
      (
        tag,
      ) => `<section class="tag-summary"><h3><a href="${DOCS_PATH}/${tag.slug}">${escapeHtml(tag.name)}</a></h3>
${renderMarkdown(tag.description)}${operationList(tag)}</section>`,
    ),
  ].join('\n');

  return {
    index: page(`${title} ${version}: reference`, null, overview),
    tags: new Map(
      tags.map((tag) => [
        tag.slug,
        page(
          `${tag.name}: ${title} ${version} reference`,
          tag.slug,
          [
            `<h1>${escapeHtml(tag.name)}</h1>`,
            renderMarkdown(tag.description),
            `<nav aria-label="Operations of ${escapeHtml(tag.name)}">${operationList(tag, '')}</nav>`,
            ...tag.operations.map((operation) => operationSection(document, operation)),
          ].join('\n'),
        ),
      ]),
    ),
  };
}

/** The operations of a tag as links: to their section of the tag's page (`base` = that page). */
function operationList(tag: Tag, base = `${DOCS_PATH}/${tag.slug}`): string {
  const items = tag.operations.map(
    (operation) =>
      `<li><a href="${base}#${escapeHtml(operation.id)}">${methodBadge(operation)}<span>${escapeHtml(
        textOf(operation.operation.summary) || operation.id,
      )}</span><code class="path">${pathHtml(operation.path)}</code></a></li>`,
  );
  return `<ul class="operations">${items.join('')}</ul>`;
}

/** A path that may break after each slash on a narrow screen, never inside a segment. */
const pathHtml = (path: string) => escapeHtml(path).replaceAll('/', '/<wbr>');

function methodBadge(operation: Operation): string {
  const label = operation.webhook ? 'event' : operation.method;
  return `<span class="method ${label}">${label.toUpperCase()}</span>`;
}

function securityOf(document: JsonRecord): string {
  const schemes = Object.entries(recordOf(recordOf(document.components).securitySchemes));
  if (schemes.length === 0) return '';
  const items = schemes.map(
    ([name, scheme]) =>
      `<li><p class="field"><code class="name">${escapeHtml(name)}</code> <span class="type">${escapeHtml(
        [textOf(recordOf(scheme).type), textOf(recordOf(scheme).scheme) || textOf(recordOf(scheme).in)]
          .filter(Boolean)
          .join(', '),
      )}</span></p><div class="desc">${renderMarkdown(textOf(recordOf(scheme).description))}</div></li>`,
  );
  return `<h2 id="credentials">Credentials</h2><ul class="fields">${items.join('')}</ul>`;
}

/** Who may call an operation, in words, from its `security` and `x-required-permission`. */
function accessOf(operation: JsonRecord): string {
  const security = operation.security === undefined ? undefined : listOf(operation.security);
  const credentials = (security ?? [])
    .flatMap((requirement) => Object.keys(recordOf(requirement)))
    .map((name) => CREDENTIALS[name] ?? name);
  const who =
    security === undefined ? '' : credentials.length === 0 ? 'no credential' : credentials.join(' or ');
  const permission = textOf(operation['x-required-permission']);
  return [
    who && `Needs ${escapeHtml(who)}`,
    permission && `permission <code>${escapeHtml(permission)}</code>`,
  ]
    .filter(Boolean)
    .join(', ');
}

function operationSection(document: JsonRecord, entry: Operation): string {
  const { id, method, path, webhook, item, operation } = entry;
  const summary = textOf(operation.summary) || `${method.toUpperCase()} ${path}`;
  const where = webhook
    ? `<span>POSTed to your endpoint as <code>${escapeHtml(path)}</code></span>`
    : `<code>${pathHtml(path)}</code>`;
  // A webhook is sent by the service, so who may call it says nothing; its signature header does.
  const meta = [`<code>${escapeHtml(id)}</code>`, webhook ? '' : accessOf(operation)]
    .filter(Boolean)
    .join(' · ');
  return `<section class="operation" id="${escapeHtml(id)}" aria-labelledby="${escapeHtml(id)}-title">
<h2 id="${escapeHtml(id)}-title"><a class="anchor" href="#${escapeHtml(id)}">${renderInline(summary)}</a></h2>
<p class="endpoint">${methodBadge(entry)} ${where}</p><p class="meta">${meta}</p>
${renderMarkdown(textOf(operation.description))}
${parametersOf(document, item, operation)}${requestBodyOf(document, operation)}${responsesOf(document, operation)}</section>`;
}

function parametersOf(document: JsonRecord, item: JsonRecord, operation: JsonRecord): string {
  // Path-level parameters apply unless the operation redefines one (same name and place).
  const byKey = new Map<string, JsonRecord>();
  for (const raw of [...listOf(item.parameters), ...listOf(operation.parameters)]) {
    const parameter = dereference(document, raw).value;
    byKey.set(`${textOf(parameter.in)} ${textOf(parameter.name)}`, parameter);
  }
  if (byKey.size === 0) return '';
  const items = [...byKey.values()].map((parameter) => {
    const schema = recordOf(parameter.schema);
    const type = describeSchema(document, schema);
    const example = parameter.example ?? schema.example;
    const values = listOf(schema.enum);
    const notes = [
      ...(values.length > 0 ? [`one of ${values.map(codeSpan).join(', ')}`] : []),
      ...(example !== undefined ? [`example ${codeSpan(example)}`] : []),
    ];
    return `<li><p class="field"><code class="name">${escapeHtml(textOf(parameter.name))}</code> <span class="type">${escapeHtml(
      `${textOf(parameter.in)}, ${type}`,
    )}</span>${parameter.required === true ? ' <span class="required">required</span>' : ''}</p>${
      parameter.description ? `<div class="desc">${renderMarkdown(textOf(parameter.description))}</div>` : ''
    }${notes.length > 0 ? `<div class="rules">${renderMarkdown(notes.join('; '))}</div>` : ''}</li>`;
  });
  return `<h3>Parameters</h3><ul class="fields">${items.join('')}</ul>`;
}

function requestBodyOf(document: JsonRecord, operation: JsonRecord): string {
  if (operation.requestBody === undefined) return '';
  const body = dereference(document, operation.requestBody).value;
  const parts = Object.entries(recordOf(body.content)).map(([mediaType, value]) => {
    const content = recordOf(value);
    const fields = fieldsOf(document, content.schema);
    const type = describeSchema(document, content.schema);
    return `<p class="meta"><code>${escapeHtml(mediaType)}</code>, ${escapeHtml(type)}${body.required === true ? ', required' : ''}</p>
${renderFields(fields)}${exampleOf('Example request', content.example)}`;
  });
  return `<h3>Request body</h3>${renderMarkdown(textOf(body.description))}${parts.join('')}`;
}

function responsesOf(document: JsonRecord, operation: JsonRecord): string {
  const entries = Object.entries(recordOf(operation.responses));
  if (entries.length === 0) return '';
  const items = entries.map(([status, raw]) => {
    const response = dereference(document, raw).value;
    const headers = Object.entries(recordOf(response.headers))
      .filter(([name]) => !COMMON_HEADERS.has(name.toLowerCase()))
      .map(([name, header]) => {
        const description = textOf(dereference(document, header).value.description);
        return `<li><code>${escapeHtml(name)}</code>${description ? `: ${renderInline(description)}` : ''}</li>`;
      });
    const contents = Object.entries(recordOf(response.content)).map(([mediaType, value]) => {
      const content = recordOf(value);
      const fields = status.startsWith('2') ? fieldsOf(document, content.schema) : [];
      const type = describeSchema(document, content.schema);
      return `<p class="meta"><code>${escapeHtml(mediaType)}</code>, ${escapeHtml(type)}</p>${
        fields.length > 0
          ? `<details><summary>Fields of the answer</summary>${renderFields(fields)}</details>`
          : ''
      }${exampleOf('Example answer', content.example)}`;
    });
    return `<li><p class="field"><span class="status s${escapeHtml(status.charAt(0))}">${escapeHtml(status)}</span> ${renderInline(
      textOf(response.description),
    )}</p>${headers.length > 0 ? `<ul class="headers">${headers.join('')}</ul>` : ''}${contents.join('')}</li>`;
  });
  return `<h3>Responses</h3><ul class="responses">${items.join('')}</ul>`;
}

function exampleOf(label: string, example: unknown): string {
  if (example === undefined) return '';
  const text = typeof example === 'string' ? example : JSON.stringify(example, null, 2);
  return `<details><summary>${label}</summary><pre><code>${escapeHtml(text)}</code></pre></details>`;
}

interface Layout {
  title: string;
  version: string;
  heading: string;
  current: string | null;
  tags: readonly Tag[];
  body: string;
}

/** The frame of every page: a bar, the sections (a sidebar; below the content on a phone), the content. */
function layout({ title, version, heading, current, tags, body }: Layout): string {
  const link = (href: string, label: string, here: boolean) =>
    `<li><a href="${href}"${here ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a></li>`;
  const sections = [
    link(DOCS_PATH, 'Overview', current === null),
    ...tags.map((tag) => link(`${DOCS_PATH}/${tag.slug}`, tag.name, tag.slug === current)),
  ];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(heading)}</title><link rel="icon" href="data:,"><style>${REFERENCE_STYLE}</style></head><body>
<a class="skip" href="#content">Skip to the content</a>
<header class="bar"><a class="brand" href="${DOCS_PATH}">${escapeHtml(title)} <span>${escapeHtml(version)} reference</span></a>
<a class="to-sections" href="#sections">Sections</a><a href="/openapi.json">openapi.json</a></header>
<div class="layout"><main id="content">
${body}
</main>
<nav id="sections" class="sections" aria-label="Reference sections"><ul>${sections.join('')}</ul></nav></div>
</body></html>`;
}
