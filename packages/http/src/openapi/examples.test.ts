import { BookingSchema } from '@travelops/domain/bookings';
import { ERROR_CODES } from '@travelops/domain/shared';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { apiRoutes } from '../routes/index.js';
import { systemPaths } from '../system-paths.js';
import { buildOpenApiDocument } from './document.js';
import { ERROR_RESPONSES, ErrorEnvelopeSchema, errorExample } from './error-responses.js';
import { exampleOf, parameterExample } from './examples.js';

const doc = buildOpenApiDocument(apiRoutes, { serverUrl: 'http://localhost', extraPaths: systemPaths });

type Node = Record<string, any>;
const resolve = (node: Node): Node => {
  if (typeof node?.$ref !== 'string') return node;
  let target: any = doc;
  for (const key of node.$ref.slice(2).split('/')) target = target[key];
  return target;
};
const operations = () =>
  Object.entries(doc.paths as Record<string, Node>).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => method !== 'parameters')
      .map(([method, op]) => ({ path, method, op: op as Node, shared: (item.parameters ?? []) as Node[] })),
  );

/** The issues valibot finds in a value, as `field: message`. */
const problems = (schema: v.GenericSchema, value: unknown) =>
  (v.safeParse(schema, value).issues ?? []).map((issue) => `${v.getDotPath(issue)}: ${issue.message}`);

describe('examples come from the schemas that validate requests and shape answers', () => {
  it.each(apiRoutes.filter((route) => route.body).map((route) => [route.operationId, route] as const))(
    '%s: the request example is a valid body',
    (_id, route) => {
      expect(problems(route.body as v.GenericSchema, exampleOf(route.body as v.GenericSchema))).toEqual([]);
    },
  );

  it.each(apiRoutes.map((route) => [route.operationId, route] as const))(
    '%s: the success example is a valid answer, and each parameter example a valid parameter',
    (_id, route) => {
      expect(problems(route.success.schema, exampleOf(route.success.schema))).toEqual([]);
      for (const [name, schema] of Object.entries({ ...route.params?.entries, ...route.query?.entries })) {
        const example = parameterExample(name, schema);
        if (example !== undefined) expect(problems(schema, example), name).toEqual([]);
      }
    },
  );

  it('every error response has an example in the envelope, with the code of its status', () => {
    for (const [status, { code }] of Object.entries(ERROR_RESPONSES)) {
      const example = errorExample(Number(status));
      expect(problems(ErrorEnvelopeSchema, example), status).toEqual([]);
      expect(example.error.code).toBe(code);
    }
    expect(new Set(Object.values(ERROR_RESPONSES).map((r) => r.code))).toEqual(new Set(ERROR_CODES));
  });

  it('a booking example reads like one: a PENDING checkout hold with its checkout URL', () => {
    const booking = exampleOf(BookingSchema) as Node;
    expect(booking).toMatchObject({
      id: expect.stringMatching(/^bkg_/),
      status: 'PENDING',
      paymentMode: 'CHECKOUT',
    });
    expect(booking.checkoutUrl).toMatch(/\/sandbox\/pay\//);
    expect(booking).not.toHaveProperty('paymentLinkUrl');
    expect(JSON.stringify(booking)).not.toMatch(/ text"/);
  });
});

describe('/openapi.json', () => {
  it.each(operations().map((o) => [`${o.method.toUpperCase()} ${o.path}`, o] as const))(
    '%s has request and response examples',
    (_name, { op, shared }) => {
      for (const parameter of [...shared, ...(op.parameters ?? [])].map(resolve)) {
        if (parameter.in === 'path') expect(parameter.example, parameter.name).toBeDefined();
      }
      const body = op.requestBody?.content?.['application/json'];
      if (op.requestBody) expect(body?.example, 'request body').toBeDefined();
      for (const [status, response] of Object.entries(op.responses as Node)) {
        for (const [type, content] of Object.entries((resolve(response).content ?? {}) as Node)) {
          expect(content.example, `${status} ${type}`).toBeDefined();
        }
      }
    },
  );

  it('every webhook delivery has an example, its data valid for its schema', () => {
    for (const [type, item] of Object.entries(doc.webhooks as Node)) {
      const example = item.post.requestBody.content['application/json'].example;
      expect(example.type).toBe(type);
      if (type.startsWith('booking.')) expect(problems(BookingSchema, example.data), type).toEqual([]);
    }
  });

  it('every field of every request body says what it is', () => {
    const undescribed: string[] = [];
    const walk = (owner: string, schema: Node) => {
      for (const [key, property] of Object.entries((schema.properties ?? {}) as Node)) {
        if (!property.description) undescribed.push(`${owner}.${key}`);
        walk(`${owner}.${key}`, property);
        if (property.items) walk(`${owner}.${key}[]`, resolve(property.items));
      }
    };
    for (const { op } of operations()) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      if (schema) walk(op.operationId, resolve(schema));
    }
    expect(undescribed).toEqual([]);
  });
});
