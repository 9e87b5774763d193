/** OpenAPI entries of the operations served outside the route table. */
const plain = (operationId: string, summary: string, description: string, example: object) => ({
  get: {
    operationId,
    summary,
    tags: ['System'],
    security: [],
    responses: {
      '200': { description, content: { 'application/json': { schema: { type: 'object' }, example } } },
    },
  },
});

/** These paths count against the per-IP limit (health probes only peek at it, so they never get 429). */
const RATE_LIMITED = { '429': { $ref: '#/components/responses/RateLimited' } };
const READY = { data: { status: 'ready', checks: { database: 'ok', redis: 'ok' } } };
const HTML = '<!doctype html><html lang="en">...</html>';

export const systemPaths: Record<string, object> = {
  '/healthz': plain('getHealth', 'Liveness', 'The process is up.', { data: { status: 'ok' } }),
  '/readyz': {
    get: {
      ...plain('getReadiness', 'Readiness', 'The database (and Redis, when configured) answer.', READY).get,
      responses: {
        '200': {
          description: 'The database (and Redis, when configured) answer.',
          content: { 'application/json': { schema: { type: 'object' }, example: READY } },
        },
        '503': { $ref: '#/components/responses/InternalError' },
      },
    },
  },
  '/openapi.json': {
    get: {
      ...plain('getOpenApiDocument', 'This document', 'The OpenAPI 3.1 description.', {
        openapi: '3.1.0',
        info: { title: 'TravelOps API', version: '2.0.0' },
        paths: {},
      }).get,
      responses: {
        ...plain('getOpenApiDocument', 'This document', 'The OpenAPI 3.1 description.', {
          openapi: '3.1.0',
          info: { title: 'TravelOps API', version: '2.0.0' },
          paths: {},
        }).get.responses,
        ...RATE_LIMITED,
      },
    },
  },
  '/docs': {
    get: {
      operationId: 'getApiReference',
      summary: 'Human-readable reference',
      tags: ['System'],
      security: [],
      responses: {
        '200': {
          description: 'HTML reference.',
          content: { 'text/html': { schema: { type: 'string' }, example: HTML } },
        },
        ...RATE_LIMITED,
      },
    },
  },

  '/sandbox/pay/{token}': {
    parameters: [
      {
        name: 'token',
        in: 'path',
        required: true,
        schema: { type: 'string', maxLength: 100 },
        example: '9fJ2kL0qRzX8vB3nM5sT7wYc1dH4gK6a',
      },
    ],
    get: {
      operationId: 'getSandboxCheckout',
      summary: 'Sandbox checkout page',
      description: 'The built-in payment provider: shows the amount with Pay and Fail buttons.',
      tags: ['System'],
      security: [],
      responses: {
        '200': {
          description: 'HTML page.',
          content: { 'text/html': { schema: { type: 'string' }, example: HTML } },
        },
        '404': { $ref: '#/components/responses/NotFound' },
        ...RATE_LIMITED,
      },
    },
    post: {
      operationId: 'completeSandboxCheckout',
      summary: 'Complete or fail a sandbox payment',
      description:
        'Form or JSON `{ "outcome": "succeeded" | "failed" }`. Success records the payment; a PENDING booking becomes CONFIRMED (`payment.succeeded`, `booking.confirmed`). 422 when the page is closed or expired or the booking is cancelled.',
      tags: ['System'],
      security: [],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['outcome'],
              properties: {
                outcome: {
                  type: 'string',
                  enum: ['succeeded', 'failed'],
                  description: 'What the sandbox provider reports: `succeeded` or `failed`.',
                },
              },
            },
            example: { outcome: 'succeeded' },
          },
        },
      },
      responses: {
        '200': {
          description: 'The session and booking after payment.',
          content: {
            'application/json': {
              schema: { type: 'object' },
              example: {
                data: {
                  sessionId: 'ps_4Xk9TzQ2mB7rW1pLs8YvNc',
                  status: 'SUCCEEDED',
                  amount: 5000,
                  currency: 'EUR',
                  booking: { id: 'bkg_4Xk9TzQ2mB7rW1pLs8YvNc', status: 'CONFIRMED', paymentStatus: 'PAID' },
                },
              },
            },
          },
        },
        '400': { $ref: '#/components/responses/BadRequest' },
        '404': { $ref: '#/components/responses/NotFound' },
        '422': { $ref: '#/components/responses/Unprocessable' },
        ...RATE_LIMITED,
      },
    },
  },
};
