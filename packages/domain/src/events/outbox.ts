import { newId } from '../shared/ids.js';
import type { Clock } from '../shared/ports.js';
import type { WebhookEventType } from '../webhooks/index.js';

/** Events the service writes for itself (the worker acts on them); endpoints cannot subscribe. */
const INTERNAL_EVENT_TYPES = ['notification.email_requested'] as const;

/** Every event type the outbox carries: the subscribable ones and the internal ones. */
export type OutboxEventType = WebhookEventType | (typeof INTERNAL_EVENT_TYPES)[number];

/** The envelope of decisions §8; written in the same transaction as the change it reports. */
export interface OutboxEvent {
  id: string;
  type: OutboxEventType;
  createdAt: string;
  workspaceId: string;
  data: unknown;
}

export interface OutboxStore {
  /** `aggregateId` (the booking id) orders delivery per booking. */
  append(event: OutboxEvent, aggregateId: string): Promise<void>;
}

/** Writes one event, stamped now, in the caller's transaction. */
export function appendEvent(
  deps: { outbox: OutboxStore; clock: Clock },
  event: { type: OutboxEventType; workspaceId: string; aggregateId: string; data: unknown },
): Promise<void> {
  return deps.outbox.append(
    {
      id: newId('event'),
      type: event.type,
      createdAt: deps.clock.now().toISOString(),
      workspaceId: event.workspaceId,
      data: event.data,
    },
    event.aggregateId,
  );
}
