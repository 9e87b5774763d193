// The domain's public face: one index per bounded context (see docs/architecture.md).
export * from './access/index.js';
export * from './bookings/index.js';
export * from './catalog/index.js';
export * from './crm/index.js';
export * from './events/index.js';
export * from './guests/index.js';
export * from './idempotency/index.js';
export * from './notifications/index.js';
export * from './octo/index.js';
export * from './operations/index.js';
export * from './payments/index.js';
export * from './shared/index.js';
export * from './webhooks/index.js';
