export type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore } from './ports.js';
export {
  IDEMPOTENCY_RETENTION_MS,
  type IdempotentRequest,
  purgeIdempotencyKeys,
  runIdempotently,
  type StoredResponse,
} from './run-idempotently.js';
