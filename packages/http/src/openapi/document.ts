import { PaginationSchema } from '@travelops/domain/shared';
import type * as v from 'valibot';
import { DEFAULT_EXPENSIVE_REQUESTS_PER_CREDENTIAL } from '../concurrency.js';
import { acceptsBearer, type RouteDefinition } from '../route.js';
import { SCHEMA_NAMES } from './component-names.js';
import { type ComponentRoots, collectComponents } from './components.js';
import { ERROR_RESPONSES, ErrorEnvelopeSchema, errorExample } from './error-responses.js';
import { exampleOf, parameterExample } from './examples.js';
import { describeFields } from './field-descriptions.js';
import { type Components, type JsonSchemaObject, jsonSchemaOf } from './json-schema.js';
import { webhookOperations, webhookPayloadSchemas } from './webhooks.js';

const API_VERSION = '2.0.0';

const TAG_DESCRIPTIONS: Record<string, string> = {
  Tours: 'The product catalog: what an operator sells.',
  Availability: 'Departures of a tour: when it runs and how many seats remain.',
  Customers: 'CRM records of the people who book: notes and a merged timeline.',
  Companies: 'B2B accounts (agencies, schools, corporate clients) that customers belong to.',
  Leads: 'Prospects before they book: status pipeline and conversion into customers.',
  'CRM tasks': 'Follow-ups with a due time, linked to customers, leads, bookings or companies.',
  Bookings: 'Reservations: atomic seats, holds, payments, status history.',
  Webhooks: 'Signed event deliveries to your endpoints, and their management.',
  Public:
    'No credential: what a booking widget and a guest see. Published tours and bookable departures only.',
  System: 'Health, readiness and this description.',
  'Blackout dates': 'Days on which no departure is bookable, workspace-wide or for one tour.',
  Guides: 'Workspace members who guide: profiles and time off.',
  Vehicles: 'The fleet departures are assigned to.',
  Resources:
    'What departures run on (boats, buses, rooms, equipment): an EXCLUSIVE one serves one departure at a time; a SHARED_SEATS one caps the seats sold over the departures that overlap on it.',
  Vendors: 'Suppliers: transport, accommodation, food, activities.',
  Incidents: 'What went wrong on a departure or booking, and its follow-up.',
  Itineraries: 'Multi-day trip plans for a customer, shared through a public link.',
  Sessions:
    'The first-party application signs in with e-mail and password and gets a session cookie (HttpOnly, SameSite=Lax) plus a CSRF token for unsafe methods. Not for integrations: they use API tokens.',
  'API keys':
    'The API-key settings: create (secret shown once), list and revoke the bearer tokens of a workspace. Session only: a token cannot mint or revoke tokens.',
  Members: 'Who can sign in to a workspace, and with which role. Session only.',
};

const REQUEST_ID_HEADER = {
  description: 'Identifies the request in the service logs; echoed when the caller sends a safe value.',
  schema: { type: 'string' },
};

const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window for the counted credential (or client IP).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window ends and the budget is full again.',
    schema: { type: 'integer' },
  },
};

/** Every answer carries these (decisions §7), errors included. */
const RESPONSE_HEADERS = {
  'X-Request-Id': REQUEST_ID_HEADER,
  ...Object.fromEntries(
    Object.keys(RATE_LIMIT_HEADERS).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
  ),
};

/** What a `nextCursor` looks like: opaque, signed; clients pass it back unchanged. */
const EXAMPLE_CURSOR = 'eyJrIjpbIjIwMjYtMDYtMDJUMTQ6MzE6MDcuMTIwWiJdfQ.k3Jx0vQm8Yw';

const RETRY_AFTER_HEADER = {
  description: 'Seconds to wait before retrying (equal to `X-RateLimit-Reset`).',
  schema: { type: 'integer' },
};

function errorStatuses(route: RouteDefinition): number[] {
  const statuses = new Set(route.errors);
  if (route.access !== 'public') {
    statuses.add(401);
    statuses.add(403);
  }
  // A workspace path given a slug instead of the id answers 400 (decisions §10).
  if (route.query || route.body || route.idempotent || route.path.includes('{workspaceId}'))
    statuses.add(400);
  if (route.idempotent) {
    statuses.add(409);
    statuses.add(422);
  }
  if (route.body) {
    statuses.add(413);
    statuses.add(415);
  }
  statuses.add(429);
  statuses.add(500);
  return [...statuses].sort((a, b) => a - b);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `example` of a parameter, when it has one (an opaque cursor has none). */
function withExample(name: string, schema: v.GenericSchema | undefined) {
  const example = schema ? parameterExample(name, schema) : undefined;
  return example === undefined ? {} : { example };
}

function parametersOf(route: RouteDefinition, components: Components) {
  const parameters: object[] = [];
  const path = route.params
    ? jsonSchemaOf(route.params as v.GenericSchema, { inlineRoot: true, components })
    : null;
  for (const [name, entry] of Object.entries(route.params?.entries ?? {})) {
    parameters.push({
      name,
      in: 'path',
      required: true,
      schema: path?.properties?.[name] ?? { type: 'string' },
      ...withExample(name, entry),
    });
  }
  const query = route.query
    ? jsonSchemaOf(route.query as v.GenericSchema, { inlineRoot: true, components })
    : null;
  for (const [name, schema] of Object.entries(query?.properties ?? {})) {
    parameters.push({
      name,
      in: 'query',
      required: query?.required?.includes(name) ?? false,
      schema,
      ...withExample(name, route.query?.entries[name]),
    });
  }
  if (route.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  if (route.access !== 'public' && route.method !== 'get') {
    parameters.push({ $ref: '#/components/parameters/CsrfToken' });
  }
  return parameters;
}

/** Bearer token or session cookie; the session alone where tokens must not reach. */
function securityOf(route: RouteDefinition) {
  if (route.access === 'public') return [];
  return acceptsBearer(route.access) ? [{ bearerAuth: [] }, { sessionCookie: [] }] : [{ sessionCookie: [] }];
}

function successResponse(route: RouteDefinition, components: Components) {
  const item = describeFields(
    jsonSchemaOf(route.success.schema, { components }),
    SCHEMA_NAMES.get(route.success.schema),
  );
  const data: JsonSchemaObject = route.success.list ? { type: 'array', items: item } : item;
  const paginated = route.success.list === 'paginated';
  const schema = {
    type: 'object',
    required: paginated ? ['data', 'pagination'] : ['data'],
    properties: {
      data,
      ...(paginated && { pagination: jsonSchemaOf(PaginationSchema, { components }) }),
    },
  };
  const one = exampleOf(route.success.schema);
  // A delete answers the id it was given: the example's is the path's.
  const lastParam = Object.entries(route.params?.entries ?? {}).at(-1);
  if (route.method === 'delete' && lastParam && isRecord(one) && 'id' in one) {
    one.id = parameterExample(...lastParam);
  }
  const generated = {
    data: route.success.list ? [one] : one,
    ...(paginated && { pagination: { hasMore: true, nextCursor: EXAMPLE_CURSOR } }),
  };
  const alternatives = (route.success.alternatives ?? []).map(({ mediaType, description, example }) => [
    mediaType,
    { schema: { type: 'string', description }, ...(example !== undefined && { example }) },
  ]);
  const headers = Object.entries(route.success.headers ?? {}).map(([name, description]) => [
    name,
    { description, schema: { type: 'string' } },
  ]);
  return {
    description: route.success.description,
    headers: { ...RESPONSE_HEADERS, ...Object.fromEntries(headers) },
    content: {
      'application/json': { schema, example: route.success.example ?? generated },
      ...Object.fromEntries(alternatives),
    },
  };
}

/** What an expensive route's caller must know: its concurrent slots (concurrency.ts). */
const EXPENSIVE_NOTE = `**Expensive:** one credential (API token, session, or client address on \`/public/\`) runs at most ${DEFAULT_EXPENSIVE_REQUESTS_PER_CREDENTIAL} expensive requests at once (calendars, OCTO availability, manifests, schedule writes; the setting \`EXPENSIVE_REQUESTS_PER_CREDENTIAL\`, default ${DEFAULT_EXPENSIVE_REQUESTS_PER_CREDENTIAL}): one more is 429 \`RATE_LIMITED\` with \`Retry-After: 1\`.`;

const describe = (route: RouteDefinition) =>
  route.expensive ? [route.description, EXPENSIVE_NOTE].filter(Boolean).join(' ') : route.description;

function operationOf(route: RouteDefinition, components: Components) {
  const responses: Record<string, object> = {
    [String(route.success.status)]: successResponse(route, components),
  };
  for (const status of errorStatuses(route)) {
    const response = ERROR_RESPONSES[status];
    if (response) responses[String(status)] = { $ref: `#/components/responses/${response.name}` };
  }
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...((route.description || route.expensive) && { description: describe(route) }),
    tags: route.tags,
    security: securityOf(route),
    ...(typeof route.access === 'object' && { 'x-required-permission': route.access.permission }),
    parameters: parametersOf(route, components),
    ...(route.body && {
      requestBody: {
        required: route.body.type !== 'optional',
        content: {
          'application/json': {
            schema: describeFields(jsonSchemaOf(route.body, { components }), SCHEMA_NAMES.get(route.body)),
            example: exampleOf(route.body),
          },
        },
      },
    }),
    responses,
  };
}

/** Where the document's schemas come from: the route table, the list and error envelopes, the webhook payloads. */
export function componentRootsOf(routes: readonly RouteDefinition[]): ComponentRoots {
  return {
    referenced: [
      ...routes.flatMap((route) =>
        route.body ? [route.body, route.success.schema] : [route.success.schema],
      ),
      PaginationSchema,
      ErrorEnvelopeSchema,
      ...webhookPayloadSchemas(),
    ],
    inlined: routes.flatMap((route) => [route.params, route.query].filter((schema) => schema !== undefined)),
  };
}

export interface OpenApiOptions {
  serverUrl: string;
  /** Operations served outside the route table (health, the document itself). */
  extraPaths?: Record<string, object>;
}

/** The OpenAPI 3.1 document, built from the same route table and schemas that serve requests. */
export function buildOpenApiDocument(routes: readonly RouteDefinition[], options: OpenApiOptions) {
  const components = collectComponents(componentRootsOf(routes));
  const paths: Record<string, Record<string, object>> = {};
  for (const route of routes) {
    paths[route.path] ??= {};
    (paths[route.path] as Record<string, object>)[route.method] = operationOf(route, components);
  }
  Object.assign(paths, options.extraPaths);
  const schemas = Object.fromEntries(
    [...components].map(([name, schema]) => [
      name,
      describeFields(jsonSchemaOf(schema, { inlineRoot: true, components }), name),
    ]),
  );
  const responses = Object.fromEntries(
    Object.entries(ERROR_RESPONSES).map(([status, { name, description }]) => [
      name,
      {
        description,
        headers:
          name === 'RateLimited'
            ? { ...RESPONSE_HEADERS, 'Retry-After': RETRY_AFTER_HEADER }
            : RESPONSE_HEADERS,
        content: {
          'application/json': {
            schema: jsonSchemaOf(ErrorEnvelopeSchema, { components }),
            example: errorExample(Number(status)),
          },
        },
      },
    ]),
  );
  const tags = [...new Set([...routes.flatMap((route) => route.tags), 'System', 'Webhooks'])].map((name) => ({
    name,
    description: TAG_DESCRIPTIONS[name] ?? name,
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'TravelOps API',
      version: API_VERSION,
      description: [
        'Travel operations: tours, departures (availability), customers and bookings, with public endpoints for booking widgets and guests. Money is an integer in the currency minor unit; timestamps are UTC ISO 8601 with milliseconds; ids are opaque prefixed strings; lists are cursor-paginated (`limit` 1..100, default 25; follow `pagination.nextCursor` until `hasMore` is false).',
        '**Rate limits.** Fixed windows of 60 seconds (configurable): 600 requests per API token or session on authenticated operations, 120 per client IP on `/public/` and on everything else, including requests whose credential fails (so a flood of bad tokens is limited by address). With Redis configured the counters live there, shared by every API instance; without it each instance counts on its own (a single-instance setup). Every answer, errors included, carries `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the window ends); past the limit the answer is 429 `RATE_LIMITED` with `Retry-After` (seconds). Health probes report the caller IP budget without spending it. Behind a proxy, the client IP comes from `X-Forwarded-For` only when the proxy is configured as trusted (`TRUST_PROXY`); IPv6 clients are counted per /64.',
        '## Authentication\n\nIntegrations send `Authorization: Bearer tops_...`: an API token bound to one workspace and a role (`READ_ONLY`, `OPERATIONS`, `ADMIN`), made in the API-key settings and shown once. Every path under `/workspaces/{workspaceId}/` needs one; another workspace in the path is 403 `FORBIDDEN`, a missing, unknown, expired or revoked token 401 `UNAUTHENTICATED`. The first-party application signs in with `POST /auth/login` and gets a session cookie; its POST, PATCH and DELETE also send `X-CSRF-Token`. `/public/` needs nothing.',
        '## Errors\n\nEvery error is `{ "error": { "code", "message", "details"?: [{ "field", "issue" }], "requestId" } }`. Codes: `VALIDATION_ERROR` 400 (also 413, 415), `UNAUTHENTICATED` 401, `FORBIDDEN` 403, `NOT_FOUND` 404, `CONFLICT` 409, `UNPROCESSABLE` 422, `RATE_LIMITED` 429, `INTERNAL_ERROR` 500. `details[].issue` names the rule (`required`, `too_long`, `unknown_field`, `insufficient_seats`, `invalid_transition`...). Retry only 429 (after `Retry-After`) and 5xx (with backoff).',
        '## Idempotency\n\nSend `Idempotency-Key: <uuid>` on every creating POST, a fresh one per logical operation. A replay within 24 hours answers the original status and body with `Idempotent-Replayed: true`; the same key with another body is 422 `idempotency_key_reused`; while the first runs, 409 `idempotency_key_in_use`. Only successes are kept: a failed request may be retried with the same key.',
        '## Pagination\n\nLists answer `{ "data": [...], "pagination": { "hasMore", "nextCursor" } }`. Pass `nextCursor` back as `cursor` (with the same filters) until `hasMore` is false. Cursors are opaque and signed: an altered one, or one from another list, is 400 with `details[0].field = "cursor"`.',
        '## Webhooks\n\nRegister endpoints under Webhooks (ADMIN). Each event is POSTed as `{ id, type, createdAt, workspaceId, data }` with `service-signature: t=<unix seconds>,v1=<hex>` (HMAC-SHA256 over `<t>.<raw body>`) and `service-event-id`; the event kinds and their payloads are listed under Webhooks. `@travelops/webhooks` verifies them.',
      ].join('\n\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: options.serverUrl }],
    tags,
    paths,
    webhooks: webhookOperations(components),
    components: {
      schemas,
      responses,
      headers: RATE_LIMIT_HEADERS,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'A fresh UUID per logical operation, not per retry. A replay within 24 hours returns the original status and body with `Idempotent-Replayed: true`; the same key with a different body is 422 `idempotency_key_reused`; while the first request still runs, 409 `idempotency_key_in_use`. Scoped to the workspace (or public slug), method and path. Unlike Stripe, only successful results are kept: a failed request rolled back, left no record, and runs again with the same key.',
          schema: { type: 'string', format: 'uuid' },
        },
        CsrfToken: {
          name: 'X-CSRF-Token',
          in: 'header',
          required: false,
          description:
            'Required on every POST, PATCH and DELETE made with the session cookie (else 403 `FORBIDDEN`): the `csrfToken` answered by `POST /auth/login` and `GET /auth/session`. Not used with a bearer token.',
          schema: { type: 'string' },
        },
      },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'An API token (`tops_...`) bound to one workspace and a role: READ_ONLY, OPERATIONS or ADMIN. Created in the API-key settings (`POST /workspaces/{workspaceId}/api-keys`, session only); only its SHA-256 is stored; revocation is immediate on every instance, requests in flight included. When `Authorization` is sent, a session cookie is ignored.',
        },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'tops_session',
          description:
            'The first-party application: `POST /auth/login` sets an opaque session cookie (HttpOnly, SameSite=Lax, Path=/, Secure when served over https; only its SHA-256 is stored). Unsafe methods also need `X-CSRF-Token`. A session acts in each workspace with the role of its member there; it ends after 24 h idle or 7 days, at logout, and at once when the member is removed or its role changes. Not for integrations: use an API token.',
        },
      },
    },
  };
}
