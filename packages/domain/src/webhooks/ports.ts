import type { OutboxEvent } from '../events/index.js';
import type { Page, PageRequest } from '../shared/ports.js';
import type { WebhookDelivery, WebhookEndpoint } from './schemas.js';

/** An endpoint as stored: its signing secrets are kept (they sign every delivery). */
export interface WebhookEndpointRecord extends WebhookEndpoint {
  workspaceId: string;
  secret: string;
  previousSecret: string | null;
}

export type WebhookEndpointPatch = Partial<
  Pick<
    WebhookEndpointRecord,
    | 'url'
    | 'events'
    | 'description'
    | 'enabled'
    | 'disabledReason'
    | 'secret'
    | 'previousSecret'
    | 'previousSecretExpiresAt'
  >
>;

export interface WebhookEndpointStore {
  insert(endpoint: Omit<WebhookEndpointRecord, 'createdAt' | 'updatedAt'>): Promise<WebhookEndpointRecord>;
  findById(workspaceId: string, id: string): Promise<WebhookEndpointRecord | null>;
  /** Newest first. */
  list(workspaceId: string, page: PageRequest): Promise<Page<WebhookEndpointRecord>>;
  update(workspaceId: string, id: string, patch: WebhookEndpointPatch): Promise<WebhookEndpointRecord | null>;
  /** Deletes the endpoint and its pending deliveries; false when there was none. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export interface WebhookDeliveryRecord extends WebhookDelivery {
  workspaceId: string;
  aggregateId: string;
  /** The outbox sequence of the event: deliveries of one aggregate go out in this order. */
  eventSeq: number;
}

/** A delivery taken by one worker for one attempt, with what it needs to send it. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRecord;
  endpoint: WebhookEndpointRecord;
  event: OutboxEvent;
}

export interface DeliveryAttemptResult {
  status: WebhookDelivery['status'];
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  deliveredAt: Date | null;
}

export interface WebhookDeliveryStore {
  /**
   * Turns outbox events nobody has fanned out yet into one PENDING delivery per enabled,
   * subscribed endpoint of their workspace (in outbox order, SKIP LOCKED so several workers
   * share the work); returns how many events it took.
   */
  fanOut(limit: number): Promise<number>;
  /**
   * Takes up to `limit` due deliveries of enabled endpoints for `leaseMs` (a worker that dies
   * loses the lease and another retries). A delivery waits while an earlier event of the same
   * aggregate to the same endpoint is still PENDING: order per booking holds.
   */
  claimDue(now: Date, limit: number, leaseMs: number): Promise<ClaimedDelivery[]>;
  /**
   * Extends to `until` the lease of those of `ids` still held under the lease ending at
   * `heldUntil` (claimed or last renewed with it, and not recorded since); returns their ids.
   * A delivery recorded meanwhile, or whose lease ran out and another claim took, is left alone.
   */
  renewLeases(ids: readonly string[], heldUntil: Date, until: Date): Promise<string[]>;
  /**
   * Records attempt number `result.attempts`; ignored unless the delivery has made exactly one
   * fewer (a worker that lost its lease never overwrites a later attempt's result).
   */
  recordAttempt(id: string, result: DeliveryAttemptResult): Promise<void>;
  /** Newest first. */
  list(workspaceId: string, endpointId: string, page: PageRequest): Promise<Page<WebhookDeliveryRecord>>;
  /** Puts a delivery back in the queue, due now; null when no such delivery. */
  resend(
    workspaceId: string,
    endpointId: string,
    id: string,
    now: Date,
  ): Promise<WebhookDeliveryRecord | null>;
}
