import { BookingSchema } from '@travelops/domain/bookings';
import { IncidentSchema } from '@travelops/domain/operations';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@travelops/domain/webhooks';
import type * as v from 'valibot';
import { isSchema } from './component-names.js';
import { exampleOf } from './examples.js';
import { type Components, jsonSchemaOf } from './json-schema.js';

const PAYMENT_EVENT_DATA = {
  type: 'object',
  required: ['paymentId', 'bookingId', 'amount', 'currency'],
  properties: {
    paymentId: { type: 'string' },
    bookingId: { type: 'string' },
    amount: { type: 'integer', description: 'Minor units.' },
    currency: { type: 'string' },
    purpose: { type: 'string', enum: ['FULL', 'DEPOSIT', 'BALANCE'] },
    reason: { type: ['string', 'null'] },
  },
};

const PAYMENT_FAILED_DATA = {
  type: 'object',
  required: ['bookingId', 'sessionId', 'amount'],
  properties: {
    bookingId: { type: 'string' },
    sessionId: { type: 'string' },
    amount: { type: 'integer' },
    reason: { type: ['string', 'null'], description: "The provider's decline code, when it gave one." },
  },
};

function envelope(type: string, data: object) {
  return {
    type: 'object',
    required: ['id', 'type', 'createdAt', 'workspaceId', 'data'],
    properties: {
      id: { type: 'string', description: 'evt_...; the same on every attempt (also in `service-event-id`).' },
      type: { type: 'string', const: type },
      createdAt: { type: 'string', format: 'date-time' },
      workspaceId: { type: 'string' },
      data,
    },
  };
}

/** What happened, per event kind: a new kind fails typecheck until described. */
const DESCRIPTIONS: Record<WebhookEventType, string> = {
  'booking.created': 'A booking was made (PENDING, or CONFIRMED when nothing is due).',
  'booking.confirmed': 'A booking became CONFIRMED, by payment or by status.',
  'booking.cancelled': 'A booking was cancelled; its seats are released.',
  'booking.expired': 'An unpaid hold ran out; the booking is CANCELLED with reason EXPIRED.',
  'booking.completed': 'A confirmed booking was marked COMPLETED after its departure started.',
  'booking.no_show': 'A confirmed booking was marked NO_SHOW after its departure started.',
  'booking.updated': 'A booking was changed (departure, participants, notes, amount).',
  'payment.succeeded': 'A payment was received for a booking.',
  'payment.failed': 'A checkout attempt failed; the booking is unchanged.',
  'payment.refunded': 'Money was returned for a booking.',
  'incident.created': 'A HIGH or CRITICAL incident was reported (lower severities emit nothing).',
};

/** The `data` of each event kind: a schema the service answers with, or the JSON Schema of a payment record. */
const PAYLOADS: Record<WebhookEventType, v.GenericSchema | object> = {
  'booking.created': BookingSchema,
  'booking.confirmed': BookingSchema,
  'booking.cancelled': BookingSchema,
  'booking.expired': BookingSchema,
  'booking.completed': BookingSchema,
  'booking.no_show': BookingSchema,
  'booking.updated': BookingSchema,
  'payment.succeeded': PAYMENT_EVENT_DATA,
  'payment.failed': PAYMENT_FAILED_DATA,
  'payment.refunded': PAYMENT_EVENT_DATA,
  'incident.created': IncidentSchema,
};

/** Examples of the two payment payloads, which are plain JSON Schema rather than valibot. */
const PAYMENT_EXAMPLES: Record<string, object> = {
  'payment.succeeded': {
    paymentId: 'pay_4Xk9TzQ2mB7rW1pLs8YvNc',
    bookingId: 'bkg_4Xk9TzQ2mB7rW1pLs8YvNc',
    amount: 5000,
    currency: 'EUR',
    purpose: 'FULL',
    reason: null,
  },
  'payment.refunded': {
    paymentId: 'pay_4Xk9TzQ2mB7rW1pLs8YvNc',
    bookingId: 'bkg_4Xk9TzQ2mB7rW1pLs8YvNc',
    amount: 2000,
    currency: 'EUR',
    purpose: 'FULL',
    reason: 'Guest asked to cancel',
  },
  'payment.failed': {
    bookingId: 'bkg_4Xk9TzQ2mB7rW1pLs8YvNc',
    sessionId: 'ps_4Xk9TzQ2mB7rW1pLs8YvNc',
    amount: 5000,
  },
};

/** The delivered envelope of an event kind, with its `data` made from the same schema. */
function envelopeExample(type: WebhookEventType) {
  const payload = PAYLOADS[type];
  return {
    id: 'evt_4Xk9TzQ2mB7rW1pLs8YvNc',
    type,
    createdAt: '2026-06-02T14:31:07.120Z',
    workspaceId: 'ws_4Xk9TzQ2mB7rW1pLs8YvNc',
    data: isSchema(payload) ? exampleOf(payload) : PAYMENT_EXAMPLES[type],
  };
}

/** The payload schemas, whose components the document publishes beside the routes' ones. */
export const webhookPayloadSchemas = (): v.GenericSchema[] => Object.values(PAYLOADS).filter(isSchema);

/**
 * OpenAPI 3.1 `webhooks`: what a receiver gets for each event kind. Every delivery is a POST
 * with `service-signature: t=<unix seconds>,v1=<hex>` (HMAC-SHA256 over `<t>.<raw body>` with
 * the endpoint's secret; several `v1` during a secret rotation) and `service-event-id`.
 */
export function webhookOperations(components: Components): Record<string, object> {
  return Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => {
      const payload = PAYLOADS[type];
      const data = isSchema(payload) ? jsonSchemaOf(payload, { components }) : payload;
      return [
        type,
        {
          post: {
            operationId: `receive${type
              .split(/[._]/)
              .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
              .join('')}Event`,
            summary: type,
            description: `${DESCRIPTIONS[type]} Verify the signature over the raw body before acting (reject if |now - t| > 300 s); answer 2xx quickly. Anything else, a timeout (10 s) or a refused connection is retried with exponential backoff for about three days; 410 disables the endpoint; 429/503 \`Retry-After\` is honoured. Delivery is at least once and in order per booking (per incident for incident events): de-duplicate by \`service-event-id\`.`,
            tags: ['Webhooks'],
            security: [],
            parameters: [
              {
                name: 'service-signature',
                in: 'header',
                required: true,
                schema: {
                  type: 'string',
                  example: 't=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
                },
              },
              {
                name: 'service-event-id',
                in: 'header',
                required: true,
                schema: { type: 'string' },
                example: 'evt_4Xk9TzQ2mB7rW1pLs8YvNc',
              },
            ],
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: envelope(type, data), example: envelopeExample(type) },
              },
            },
            responses: {
              '200': { description: 'Any 2xx acknowledges the delivery.' },
              '401': { description: 'The receiver refused the signature; the delivery is retried.' },
              '410': { description: 'Gone: the endpoint is disabled.' },
            },
          },
        },
      ];
    }),
  );
}
