import * as v from 'valibot';
import { DateTimeSchema, text } from '../shared/schemas.js';

/** Event kinds a webhook endpoint can subscribe to (decisions §8, plus additive ones). */
export const WEBHOOK_EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.cancelled',
  'booking.expired',
  'booking.completed',
  'booking.no_show',
  'booking.updated',
  'payment.succeeded',
  'payment.failed',
  'payment.refunded',
  'incident.created',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

const EndpointUrl = v.pipe(
  v.string(),
  v.maxLength(2000),
  v.url('invalid_url'),
  v.regex(/^https?:\/\//i, 'unsupported_scheme'),
);
const Events = v.pipe(
  v.array(v.picklist(WEBHOOK_EVENT_TYPES)),
  v.minLength(1),
  v.maxLength(WEBHOOK_EVENT_TYPES.length),
);

export const WebhookEndpointSchema = v.object({
  id: v.string(),
  url: v.string(),
  events: v.array(v.picklist(WEBHOOK_EVENT_TYPES)),
  description: v.nullable(v.string()),
  enabled: v.boolean(),
  /** Why the service disabled it (for example `gone`: the receiver answered 410). */
  disabledReason: v.nullable(v.string()),
  /** Until then, deliveries are also signed with the previous secret (rotation overlap). */
  previousSecretExpiresAt: v.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
  updatedAt: DateTimeSchema,
});
export type WebhookEndpoint = v.InferOutput<typeof WebhookEndpointSchema>;

export const WebhookEndpointWithSecretSchema = v.object({
  ...WebhookEndpointSchema.entries,
  /** `whsec_...`: shown once, at creation and rotation. */
  secret: v.string(),
});

export const CreateWebhookEndpointSchema = v.strictObject({
  url: EndpointUrl,
  events: Events,
  description: v.optional(text(500)),
  enabled: v.optional(v.boolean()),
});
export type CreateWebhookEndpointInput = v.InferOutput<typeof CreateWebhookEndpointSchema>;

export const UpdateWebhookEndpointSchema = v.strictObject({
  url: v.optional(EndpointUrl),
  events: v.optional(Events),
  description: v.optional(v.nullable(text(500))),
  enabled: v.optional(v.boolean()),
});
export type UpdateWebhookEndpointInput = v.InferOutput<typeof UpdateWebhookEndpointSchema>;

export const RotateWebhookSecretSchema = v.strictObject({
  /** How long the old secret keeps signing beside the new one; default 24. */
  overlapHours: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(168))),
});

const WEBHOOK_DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;

export const WebhookDeliverySchema = v.object({
  id: v.string(),
  endpointId: v.string(),
  eventId: v.string(),
  eventType: v.string(),
  status: v.picklist(WEBHOOK_DELIVERY_STATUSES),
  attempts: v.number(),
  nextAttemptAt: v.nullable(DateTimeSchema),
  lastAttemptAt: v.nullable(DateTimeSchema),
  lastStatusCode: v.nullable(v.number()),
  lastError: v.nullable(v.string()),
  deliveredAt: v.nullable(DateTimeSchema),
  createdAt: DateTimeSchema,
});
export type WebhookDelivery = v.InferOutput<typeof WebhookDeliverySchema>;

export const DeletedSchema = v.object({ id: v.string(), deleted: v.literal(true) });
