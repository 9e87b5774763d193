// The webhooks context's face: webhook endpoints and their deliveries.
// Other contexts, adapters and apps use these names and nothing else of this folder.
export { listWebhookDeliveries, resendWebhookDelivery } from './deliveries.js';
export {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  type EndpointUrlCheck,
  getWebhookEndpoint,
  listWebhookEndpoints,
  newWebhookSecret,
  rotateWebhookSecret,
  signingSecrets,
  toWebhookDeliveryView,
  toWebhookEndpointView,
  updateWebhookEndpoint,
  type WebhookStores,
} from './endpoints.js';
export type {
  ClaimedDelivery,
  DeliveryAttemptResult,
  WebhookDeliveryRecord,
  WebhookDeliveryStore,
  WebhookEndpointPatch,
  WebhookEndpointRecord,
  WebhookEndpointStore,
} from './ports.js';
export {
  CreateWebhookEndpointSchema,
  DeletedSchema,
  RotateWebhookSecretSchema,
  UpdateWebhookEndpointSchema,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  WebhookDeliverySchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  type WebhookEventType,
} from './schemas.js';
