export {
  appendEvent,
  INTERNAL_EVENT_TYPES,
  type OutboxEvent,
  type OutboxEventType,
  type OutboxStore,
} from './outbox.js';
