import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { parse } from 'yaml';
import { fromNow, type TestWorkspace } from './fixtures.js';
import type { TestApi, TestResponse } from './harness.js';

type Json = Record<string, unknown>;
type AddFormats = (ajv: Ajv) => Ajv;
// ajv-formats is CommonJS: its function is the default export, once or twice wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ??
  addFormatsModule) as unknown as AddFormats;

/** OCTO's own OpenAPI document, as `@octocloud/types` publishes it (`src/openapi.yaml`). */
function octoDocument(): Json {
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve('@octocloud/types/package.json'));
  return parse(readFileSync(join(root, 'src', 'openapi.yaml'), 'utf8')) as Json;
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: `anyOf` the schema and null. (Ajv's own
 * `nullable` only widens `type`; OCTO puts it beside `allOf: [$ref]`, which null would fail.)
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (typeof node !== 'object' || node === null) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key !== 'nullable' && key !== 'example' && key !== 'examples') out[key] = toJsonSchema(value);
  }
  return (node as Json).nullable === true ? { anyOf: [out, { type: 'null' }] } : out;
}

/** `/bookings/{uuid}/confirm` -> a pattern of concrete paths; OCTO writes its lists with a trailing slash. */
const pathPattern = (template: string) =>
  new RegExp(`^${template.replace(/\/$/, '').replace(/\{[^}]+\}/g, '[^/]+')}$`);

/** Responses checked against OCTO's document, by operation and status. */
export interface OctoContract {
  /** Fails the test unless the answer (status, body, `Octo-Capabilities`) is what OCTO publishes. */
  check(method: string, octoPath: string, res: TestResponse): void;
  /** How many answers were checked, per `METHOD path status`. */
  checked: Map<string, number>;
  /** The document's operations, as `METHOD /path` (trailing slash removed, parameters `{}`). */
  operations(): string[];
}

export function createOctoContract(): OctoContract {
  const document = octoDocument();
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(toJsonSchema(document) as Json, 'octo');
  const validators = new Map<string, ValidateFunction>();
  const compile = (ref: string) => {
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `octo#${ref}` });
      validators.set(ref, validate);
    }
    return validate;
  };
  const paths = document.paths as Record<string, Record<string, Json>>;
  const checked = new Map<string, number>();

  const operationOf = (method: string, path: string) => {
    const candidates = Object.entries(paths).filter(([template]) => pathPattern(template).test(path));
    // A literal segment beats a parameter (`/availability/calendar` is not `/availability/{x}`).
    candidates.sort(([a], [b]) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
    for (const [template, operations] of candidates) {
      const operation = operations[method.toLowerCase()];
      if (operation) return { template, operation };
    }
    return null;
  };

  return {
    checked,
    operations() {
      return Object.entries(paths).flatMap(([template, operations]) =>
        Object.keys(operations).map(
          (method) => `${method.toUpperCase()} ${template.replace(/\/$/, '').replace(/\{[^}]+\}/g, '{}')}`,
        ),
      );
    },
    check(method, octoPath, res) {
      const path = octoPath.split('?')[0] as string;
      const found = operationOf(method, path);
      // A path OCTO does not define can only be answered 404, in OCTO's error shape.
      if (!found) expect(res.status, `${method} ${path} is not an operation of OCTO's document`).toBe(404);
      const { template, operation } = found ?? { template: '(no operation)', operation: {} as Json };
      const label = `${method.toUpperCase()} ${template} ${res.status}`;
      // The request's capabilities are echoed on every answer, an empty list included.
      expect(res.headers.get('octo-capabilities'), `${label}: Octo-Capabilities`).not.toBeNull();
      let ref: string;
      if (res.status === 401) ref = '/components/schemas/ErrorUnauthorized';
      else if (res.status === 403) ref = '/components/schemas/ErrorForbidden';
      else if (res.status === 404 || res.status === 429 || res.status >= 500)
        ref = '/components/schemas/BaseError';
      else {
        const responses = operation.responses as Record<string, unknown>;
        expect(responses, label).toHaveProperty(String(res.status));
        const pointer = ['paths', template, method.toLowerCase(), 'responses', String(res.status)]
          .map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1'))
          .join('/');
        ref = `/${pointer}/content/application~1json/schema`;
      }
      const validate = compile(ref);
      const valid = validate(res.body);
      expect(validate.errors ?? [], `${label}: ${JSON.stringify(res.body).slice(0, 2000)}`).toEqual([]);
      expect(valid).toBe(true);
      if (res.status === 401) expect(res.body.error).toBe('UNAUTHORIZED');
      if (res.status === 403) expect(res.body.error).toBe('FORBIDDEN');
      checked.set(label, (checked.get(label) ?? 0) + 1);
    },
  };
}

export interface OctoRequestOptions {
  token: string;
  body?: unknown;
  /** `Octo-Capabilities` (default: none, sent as an empty header as OCTO's validator does). */
  capabilities?: string;
  headers?: Record<string, string>;
}

/** A request to `/octo<path>` whose answer is checked against OCTO's document. */
export function octoClient(t: TestApi, contract: OctoContract) {
  return async (method: string, path: string, options: OctoRequestOptions): Promise<TestResponse> => {
    const res = await t.request(method, `/octo${path}`, {
      token: options.token,
      headers: { 'Octo-Capabilities': options.capabilities ?? '', ...options.headers },
      ...(options.body !== undefined && { body: options.body }),
    });
    contract.check(method, path, res);
    return res;
  };
}

export type OctoRequest = ReturnType<typeof octoClient>;

/** A day `days` from today, as `YYYY-MM-DD` in UTC. */
export const dayFromNow = (days: number) => fromNow(days).slice(0, 10);

/** A published tour with ticket types (Adult, Child needing an adult, Infant), in Berlin. */
export const ticketedTour = (slug: string, overrides: Record<string, unknown> = {}) => ({
  name: `Tour ${slug}`,
  slug,
  durationMinutes: 120,
  basePrice: 3000,
  currency: 'EUR',
  capacity: 10,
  isPublic: true,
  timeZone: 'Europe/Berlin',
  cancellationPolicy: { cutoffHours: 24, refund: 'FULL' },
  ticketTypes: [
    { name: 'Adult', ageBand: 'ADULT', price: 3000, minAge: 18 },
    { name: 'Child', ageBand: 'CHILD', price: 1500, minAge: 4, maxAge: 17, requiresAdult: true },
    { name: 'Infant', ageBand: 'INFANT', price: 0, maxAge: 3, maxPerBooking: 2, requiresAdult: true },
  ],
  ...overrides,
});

/** A workspace's native API call that must answer `status`; its `data`. */
export async function native(
  t: TestApi,
  ws: TestWorkspace,
  method: string,
  path: string,
  body?: unknown,
  status = method === 'POST' ? 201 : 200,
) {
  const res = await t.request(method, `/workspaces/${ws.workspaceId}${path}`, {
    token: ws.token,
    ...(body !== undefined && { body }),
  });
  if (res.status !== status) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** Reservations the tests make, each with unit items of the product's units. */
export const unitItems = (...unitIds: string[]) => unitIds.map((unitId) => ({ unitId }));
