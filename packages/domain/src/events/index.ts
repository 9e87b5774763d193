// The events context's face: the transactional outbox every context appends its events to.
// Other contexts, adapters and apps use these names and nothing else of this folder.
export { appendEvent, type OutboxEvent, type OutboxEventType, type OutboxStore } from './outbox.js';
