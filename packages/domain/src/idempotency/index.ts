// The idempotency context's face: Idempotency-Key replay.
// Other contexts, adapters and apps use these names and nothing else of this folder.
export type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore } from './ports.js';
export { purgeIdempotencyKeys, runIdempotently } from './run-idempotently.js';
