import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi/document.js';
import { apiRoutes } from '../routes/index.js';
import { servedSystemPaths } from '../system-paths.js';
import { buildReferencePages } from './pages.js';
import { REFERENCE_STYLE } from './style.js';

const document = buildOpenApiDocument(apiRoutes, {
  serverUrl: 'http://localhost:3000',
  extraPaths: servedSystemPaths({ sandbox: true, stripeWebhooks: false }),
});
const pages = buildReferencePages(document);
const allPages = [pages.index, ...pages.tags.values()];

/** The HTML of one operation's section of a page. */
function sectionOf(html: string, id: string): string {
  const start = html.indexOf(`<section class="operation" id="${id}"`);
  expect(start, id).toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</section>', start));
}

describe('the reference pages of the API', () => {
  it('have one page per tag, linked from the overview and from every page', () => {
    const slugs = [...pages.tags.keys()];
    expect(slugs).toEqual(
      expect.arrayContaining(['bookings', 'crm-tasks', 'api-keys', 'public', 'webhooks']),
    );
    for (const html of allPages) {
      for (const slug of slugs) expect(html).toContain(`href="/docs/${slug}"`);
    }
  });

  it('show every operation of /openapi.json on exactly one page, webhooks included', () => {
    const operationsOf = (item: object) =>
      Object.entries(item)
        .filter(([key]) => key !== 'parameters')
        .map(([, operation]) => (operation as { operationId: string }).operationId);
    const operationIds = [
      ...Object.values(document.paths).flatMap(operationsOf),
      ...Object.values(document.webhooks).flatMap(operationsOf),
    ];
    expect(operationIds.length).toBeGreaterThan(100);
    for (const id of operationIds) {
      const found = [...pages.tags.values()].filter((html) => html.includes(`class="operation" id="${id}"`));
      expect(found.length, id).toBe(1);
      expect(pages.index, id).toContain(`#${id}"`);
    }
  });

  it("open an operation's nested request fields: createBooking shows the customer's e-mail without a click", () => {
    const createBooking = sectionOf(pages.tags.get('bookings') as string, 'createBooking');
    const body = createBooking.slice(
      createBooking.indexOf('<h3>Request body</h3>'),
      createBooking.indexOf('<h3>Responses</h3>'),
    );
    for (const field of ['availabilityId', 'customer', 'participants', 'addOns', 'paymentMode', 'notes']) {
      expect(body).toContain(`<code class="name">${field}</code>`);
    }
    // customer.email and participants[].ageBand sit one level down, in the open.
    const beforeExample = body.slice(0, body.indexOf('<details>'));
    expect(beforeExample).toMatch(
      /<code class="name">customer<\/code>[\s\S]*<code class="name">email<\/code>/,
    );
    expect(beforeExample).toMatch(
      /<code class="name">participants<\/code>[\s\S]*<code class="name">ageBand<\/code>/,
    );
  });

  it('say who may call an operation, and list its parameters and answers', () => {
    const createBooking = sectionOf(pages.tags.get('bookings') as string, 'createBooking');
    expect(createBooking).toContain(
      'Needs an API token or a session, permission <code>bookings:write</code>',
    );
    expect(createBooking).toContain('<code class="name">Idempotency-Key</code>');
    for (const status of ['201', '400', '401', '403', '409', '422', '429'])
      expect(createBooking).toContain(`>${status}</span>`);
    const listPublicTours = sectionOf(pages.tags.get('public') as string, 'listPublicTours');
    expect(listPublicTours).toContain('Needs no credential');
  });

  it('hold no script, and no style but the one the policy allows by hash', () => {
    for (const html of allPages) {
      expect(html).not.toMatch(/<script|\son[a-z]+=|style="/i);
      expect(html.match(/<style>/g)).toHaveLength(1);
      expect(html).toContain(`<style>${REFERENCE_STYLE}</style>`);
    }
  });
});

describe('the reference pages of any document', () => {
  const evil = '<img src=x onerror=alert(1)>';
  const hostile = {
    info: { title: `T${evil}`, version: `"1"${evil}`, description: `# ${evil}\n\n**${evil}** \`${evil}\`` },
    tags: [{ name: `Tag${evil}`, description: evil }],
    paths: {
      [`/x/${evil}`]: {
        parameters: [{ name: evil, in: 'query', schema: { type: 'string', enum: [evil] }, example: evil }],
        post: {
          operationId: `op"${evil}`,
          summary: evil,
          description: evil,
          tags: [`Tag${evil}`],
          security: [{ [evil]: [] }],
          'x-required-permission': evil,
          requestBody: {
            content: {
              [`application/${evil}`]: {
                schema: { type: 'object', properties: { [evil]: { type: 'string', description: evil } } },
                example: { [evil]: evil },
              },
            },
          },
          responses: {
            [`2${evil}`]: {
              description: evil,
              headers: { [evil]: { description: evil } },
              content: { 'text/html': { example: evil } },
            },
          },
        },
      },
    },
    components: { securitySchemes: { [evil]: { type: evil, description: evil } } },
  };

  it('escape everything they print', () => {
    const built = buildReferencePages(hostile);
    expect(built.tags.size).toBe(1);
    for (const html of [built.index, ...built.tags.values()]) {
      expect(html).not.toMatch(/<img/i);
      expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });

  it('survive a document with nothing in it', () => {
    const built = buildReferencePages({});
    expect(built.index).toContain('<h1>API');
    expect(built.tags.size).toBe(0);
  });
});
