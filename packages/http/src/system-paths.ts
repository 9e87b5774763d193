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

/** The counters every answer carries (components/headers, decisions §7). */
const RATE_LIMIT_HEADERS = Object.fromEntries(
  ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'].map((name) => [
    name,
    { $ref: `#/components/headers/${name}` },
  ]),
);

const htmlPage = (description: string) => ({
  description,
  headers: RATE_LIMIT_HEADERS,
  content: { 'text/html': { schema: { type: 'string' }, example: HTML } },
});

const UNSUBSCRIBE_TOKEN = {
  name: 'publicToken',
  in: 'path',
  required: true,
  description: "The booking's guest token, as in the guest's link.",
  schema: { type: 'string', maxLength: 100 },
  example: '9fJ2kL0qRzX8vB3nM5sT7wYc1dH4gK6a',
};

const TOKEN_PARAMETER = {
  name: 'token',
  in: 'path',
  required: true,
  schema: { type: 'string', maxLength: 100 },
  example: '9fJ2kL0qRzX8vB3nM5sT7wYc1dH4gK6a',
};

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

  '/pay/{token}': {
    get: {
      operationId: 'startPaymentCheckout',
      summary: 'Go to the payment provider',
      description:
        "The `checkoutUrl` and `paymentLinkUrl` a real provider hands out. No credential: the token is the access. Opens the provider's hosted checkout for the page's exact amount (once; later visits reuse it while it is open) and answers 303 to it; with the sandbox, 303 to `/sandbox/pay/{token}`. A script that asks for `application/json` (and not HTML) gets 200 `{ data: { url } }` instead, to navigate there itself. 422 when the page is closed or expired or the booking takes no payment.",
      tags: ['Public'],
      security: [],
      parameters: [TOKEN_PARAMETER],
      responses: {
        '200': {
          description: 'With `Accept: application/json`: where to send the payer.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['data'],
                properties: {
                  data: {
                    type: 'object',
                    required: ['url'],
                    properties: { url: { type: 'string', format: 'uri' } },
                  },
                },
              },
              example: { data: { url: 'https://checkout.stripe.com/c/pay/cs_test_a1B2c3' } },
            },
          },
        },
        '303': {
          description: "The provider's checkout page (`Location`).",
          headers: { Location: { description: 'Where the payer goes next.', schema: { type: 'string' } } },
        },
        '404': { $ref: '#/components/responses/NotFound' },
        '422': { $ref: '#/components/responses/Unprocessable' },
        ...RATE_LIMITED,
        '500': { $ref: '#/components/responses/InternalError' },
      },
    },
  },
  '/pay/{token}/done': {
    get: {
      operationId: 'getPaymentReturnPage',
      parameters: [TOKEN_PARAMETER],
      summary: 'Where the provider sends the payer back',
      description:
        "A small page: payment received, being confirmed (it refreshes until the provider's webhook arrives), not completed (`?cancelled=1`, with a link back to the checkout), or closed.",
      tags: ['Public'],
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
  },
  '/mail/unsubscribe/{publicToken}': {
    get: {
      operationId: 'getReminderUnsubscribePage',
      summary: "A reminder's unsubscribe page",
      description:
        "The `List-Unsubscribe` link of a departure reminder: a page with one button that stops the booking's reminders. Confirmations, receipts and changes of the booking still reach the guest. An unknown token shows the same 404 page as any other.",
      tags: ['Public'],
      security: [],
      parameters: [UNSUBSCRIBE_TOKEN],
      responses: {
        '200': htmlPage('HTML page with the button.'),
        '404': htmlPage('No booking has this token.'),
        ...RATE_LIMITED,
      },
    },
    post: {
      operationId: 'unsubscribeFromReminders',
      summary: "Stop a booking's reminders",
      description:
        "The page's button, or a mail client's one-click unsubscribe (RFC 8058: a form body `List-Unsubscribe=One-Click`, which is not required). Idempotent: the booking gets no further departure reminders.",
      tags: ['Public'],
      security: [],
      parameters: [UNSUBSCRIBE_TOKEN],
      responses: {
        '200': htmlPage('Done: a page that says so.'),
        '404': htmlPage('No booking has this token.'),
        ...RATE_LIMITED,
      },
    },
  },
  '/stripe/webhooks': {
    post: {
      operationId: 'receiveStripeWebhook',
      summary: "Stripe's webhook endpoint",
      description:
        "Served when `PAYMENT_PROVIDER=stripe`. Verified with the endpoint's signing secret (`STRIPE_WEBHOOK_SECRET`) on the raw body before anything else: a missing or wrong `Stripe-Signature` is 400, and so is a signed event with a field this service reads in another type (`client_reference_id`, `metadata`, amounts, currencies, ids): 400 `VALIDATION_ERROR` naming it (`data.object.client_reference_id`, `invalid_type`). Each event is handled once, in any order: `checkout.session.completed` (and `async_payment_succeeded`) records the payment if it is the Checkout Session the page opened (the one it keeps; another is `checkout_mismatch`) and the amount is the page's, and confirms a PENDING booking; `checkout.session.expired` closes the page and releases an unpaid hold that waited on it; `charge.refunded` records refunds made outside the service; `payment_intent.payment_failed` emits `payment.failed`. Anything else is acknowledged and ignored. A 5xx asks Stripe to send the event again.",
      tags: ['System'],
      security: [],
      parameters: [
        {
          name: 'Stripe-Signature',
          in: 'header',
          required: true,
          schema: { type: 'string', maxLength: 2000 },
        },
      ],
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: { type: 'object', description: 'A Stripe event.' },
            example: {
              id: 'evt_1Q2w3E4r5T6y',
              type: 'checkout.session.completed',
              data: { object: { id: 'cs_test_a1B2c3', amount_total: 5000, currency: 'eur' } },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'Received; `outcome` says what was done.',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['data'],
                properties: {
                  data: {
                    type: 'object',
                    required: ['received', 'outcome'],
                    properties: { received: { type: 'boolean' }, outcome: { type: 'string' } },
                  },
                },
              },
              example: { data: { received: true, outcome: 'payment_recorded' } },
            },
          },
        },
        '400': { $ref: '#/components/responses/BadRequest' },
        '413': { $ref: '#/components/responses/PayloadTooLarge' },
        ...RATE_LIMITED,
        '500': { $ref: '#/components/responses/InternalError' },
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

/** The system paths this app serves: the sandbox's only when it is on, Stripe's only with Stripe. */
export function servedSystemPaths(options: {
  sandbox: boolean;
  stripeWebhooks: boolean;
}): Record<string, object> {
  return Object.fromEntries(
    Object.entries(systemPaths).filter(
      ([path]) =>
        (options.sandbox || !path.startsWith('/sandbox/')) &&
        (options.stripeWebhooks || path !== '/stripe/webhooks'),
    ),
  );
}
