import type { OutboxEvent } from '@travelops/domain/events';
import { newId } from '@travelops/domain/shared';
import type {
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookEventType,
} from '@travelops/domain/webhooks';
import type { Knex } from 'knex';
import { beforeEach, describe, expect, it } from 'vitest';
import { withTransaction } from '../database.js';
import { createStores } from '../unit-of-work.js';
import { allPages, type ContractDatabase, ISO_MS, newWorkspace } from './contract-fixtures.js';

type NewEndpoint = Omit<WebhookEndpointRecord, 'createdAt' | 'updatedAt'>;

const LEASE_MS = 30_000;

/** A moment safely after the database's now(), which stamps fanned-out deliveries due. */
const soon = () => new Date(Date.now() + 1_000);
const plus = (at: Date, ms: number) => new Date(at.getTime() + ms);

/** A promise and the function that settles it: lets one transaction wait for another's step. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

/** Webhook endpoint and delivery rules; runs inside `describeStoreContract`. */
export function describeWebhookStoreContract(database: () => ContractDatabase): void {
  const knex = (): Knex => database().knex;
  const endpoints = () => createStores(knex()).webhookEndpoints;
  const deliveries = () => createStores(knex()).webhookDeliveries;

  const endpointFields = (workspaceId: string, overrides: Partial<NewEndpoint> = {}): NewEndpoint => ({
    id: newId('webhookEndpoint'),
    workspaceId,
    url: 'https://receiver.example/hooks',
    events: ['booking.created', 'booking.confirmed'],
    description: null,
    enabled: true,
    disabledReason: null,
    secret: `whsec_${newId('event')}`,
    previousSecret: null,
    previousSecretExpiresAt: null,
    ...overrides,
  });
  const newEndpoint = (workspaceId: string, overrides: Partial<NewEndpoint> = {}) =>
    endpoints().insert(endpointFields(workspaceId, overrides));

  const event = (workspaceId: string, type: OutboxEvent['type']): OutboxEvent => ({
    id: newId('event'),
    type,
    createdAt: '2030-08-01T10:00:00.123Z',
    workspaceId,
    data: { booking: { id: 'bkg_1' } },
  });
  /** Appends events through the outbox store, one transaction each, as the services do. */
  async function append(
    workspaceId: string,
    aggregateId: string,
    ...types: (WebhookEventType | 'notification.email_requested')[]
  ): Promise<OutboxEvent[]> {
    const written: OutboxEvent[] = [];
    for (const type of types) {
      const e = event(workspaceId, type);
      await createStores(knex()).outbox.append(e, aggregateId);
      written.push(e);
    }
    return written;
  }

  const deliveriesOf = async (endpoint: WebhookEndpointRecord): Promise<WebhookDeliveryRecord[]> =>
    (
      await allPages((after) => deliveries().list(endpoint.workspaceId, endpoint.id, { limit: 100, after }))
    ).flat();
  const claimedIds = (claimed: { delivery: WebhookDeliveryRecord }[]) => claimed.map((c) => c.delivery.id);

  describe('webhooks', () => {
    // Fan-out and claims work on the whole database: each test starts with no endpoint of an
    // earlier test enabled and no event waiting, so counts and claims are exactly its own.
    beforeEach(async () => {
      await knex()('webhook_endpoints').update({ enabled: false });
      await knex()('outbox_events').whereNull('published_at').update({ published_at: knex().fn.now() });
    });

    describe('endpoints', () => {
      it('round-trips an endpoint with its secrets and ISO timestamps; other workspaces do not see it', async () => {
        const workspaceId = await newWorkspace(knex());
        const input = endpointFields(workspaceId, {
          description: 'CRM',
          previousSecret: 'whsec_old',
          previousSecretExpiresAt: '2030-01-02T03:04:05.678Z',
        });
        const created = await endpoints().insert(input);
        expect(created).toEqual({
          ...input,
          createdAt: expect.stringMatching(ISO_MS),
          updatedAt: created.createdAt,
        });
        expect(await endpoints().findById(workspaceId, created.id)).toEqual(created);
        const other = await newWorkspace(knex());
        expect(await endpoints().findById(other, created.id)).toBeNull();
        expect(await endpoints().update(other, created.id, { enabled: false })).toBeNull();
        expect(await endpoints().delete(other, created.id)).toBe(false);
        expect((await endpoints().list(other, { limit: 10, after: null })).items).toEqual([]);
        expect(await endpoints().findById(workspaceId, created.id)).toEqual(created);
      });

      it('update writes only the keys present and bumps updatedAt; a missing endpoint is null', async () => {
        const workspaceId = await newWorkspace(knex());
        const before = await newEndpoint(workspaceId, { description: 'kept' });
        await knex()('webhook_endpoints')
          .where({ id: before.id })
          .update({ updated_at: new Date('2020-01-01T00:00:00.000Z') });
        const after = await endpoints().update(workspaceId, before.id, {
          events: ['payment.succeeded'],
          enabled: false,
          disabledReason: 'gone',
          previousSecret: before.secret,
          secret: 'whsec_new',
          previousSecretExpiresAt: '2030-05-05T05:05:05.005Z',
        });
        expect(after).toEqual({
          ...before,
          events: ['payment.succeeded'],
          enabled: false,
          disabledReason: 'gone',
          previousSecret: before.secret,
          secret: 'whsec_new',
          previousSecretExpiresAt: '2030-05-05T05:05:05.005Z',
          updatedAt: expect.stringMatching(ISO_MS),
        });
        expect(after?.updatedAt).not.toBe('2020-01-01T00:00:00.000Z');
        expect(await endpoints().update(workspaceId, before.id, {})).toEqual(after);
        const cleared = await endpoints().update(workspaceId, before.id, {
          description: null,
          previousSecret: null,
        });
        expect(cleared).toMatchObject({ description: null, previousSecret: null, secret: 'whsec_new' });
        expect(await endpoints().update(workspaceId, newId('webhookEndpoint'), { enabled: true })).toBeNull();
        expect(await endpoints().update(workspaceId, newId('webhookEndpoint'), {})).toBeNull();
      });

      it('lists newest first across pages, ties broken by id; delete answers whether it removed one', async () => {
        const workspaceId = await newWorkspace(knex());
        // One transaction: now() is the same for every row, so only the id breaks ties.
        const ids = await withTransaction(knex(), async (trx) => {
          const created: string[] = [];
          for (let i = 0; i < 5; i++) {
            created.push((await createStores(trx).webhookEndpoints.insert(endpointFields(workspaceId))).id);
          }
          return created;
        });
        const pages = await allPages((after) => endpoints().list(workspaceId, { limit: 2, after }));
        expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
        expect(pages.flat().map((e) => e.id)).toEqual([...ids].sort().reverse());
        expect(await endpoints().delete(workspaceId, ids[0] as string)).toBe(true);
        expect(await endpoints().delete(workspaceId, ids[0] as string)).toBe(false);
        expect((await endpoints().list(workspaceId, { limit: 10, after: null })).items).toHaveLength(4);
      });
    });

    describe('fan-out', () => {
      it('creates one PENDING delivery per enabled, subscribed endpoint of the workspace and publishes every event', async () => {
        const workspaceId = await newWorkspace(knex());
        const otherWorkspace = await newWorkspace(knex());
        const subscribed = await newEndpoint(workspaceId);
        const paymentsOnly = await newEndpoint(workspaceId, { events: ['payment.succeeded'] });
        const disabled = await newEndpoint(workspaceId, { enabled: false });
        const elsewhere = await newEndpoint(otherWorkspace);
        const bookingId = newId('booking');
        const events = await append(
          workspaceId,
          bookingId,
          'booking.created',
          'notification.email_requested',
          'booking.confirmed',
        );
        const [foreign] = await append(otherWorkspace, newId('booking'), 'booking.created');

        expect(await deliveries().fanOut(100)).toBe(4);
        const fanned = await deliveriesOf(subscribed);
        expect(fanned.map((d) => d.eventId).sort()).toEqual([events[0]?.id, events[2]?.id].sort());
        const seqs = await knex()('outbox_events')
          .whereIn('id', [events[0]!.id, events[2]!.id])
          .orderBy('seq')
          .pluck('seq');
        const created = fanned.find((d) => d.eventId === events[0]?.id);
        expect(created).toEqual({
          id: expect.stringMatching(/^whd_/),
          workspaceId,
          endpointId: subscribed.id,
          eventId: events[0]?.id,
          eventType: 'booking.created',
          aggregateId: bookingId,
          eventSeq: Number(seqs[0]),
          status: 'PENDING',
          attempts: 0,
          nextAttemptAt: expect.stringMatching(ISO_MS),
          lastAttemptAt: null,
          lastStatusCode: null,
          lastError: null,
          deliveredAt: null,
          createdAt: expect.stringMatching(ISO_MS),
        });
        expect(fanned.find((d) => d.eventId === events[2]?.id)?.eventSeq).toBe(Number(seqs[1]));
        expect(await deliveriesOf(paymentsOnly)).toEqual([]);
        expect(await deliveriesOf(disabled)).toEqual([]);
        expect((await deliveriesOf(elsewhere)).map((d) => d.eventId)).toEqual([foreign?.id]);
        const unpublished = await knex()('outbox_events')
          .whereIn(
            'id',
            [...events, foreign!].map((e) => e.id),
          )
          .whereNull('published_at');
        expect(unpublished).toEqual([]);

        expect(await deliveries().fanOut(100)).toBe(0);
        expect(await deliveriesOf(subscribed)).toHaveLength(2);
      });

      it('takes at most limit events, oldest first', async () => {
        const workspaceId = await newWorkspace(knex());
        const endpoint = await newEndpoint(workspaceId);
        const events = await append(workspaceId, newId('booking'), 'booking.created', 'booking.confirmed');
        const [third] = await append(workspaceId, newId('booking'), 'booking.created');
        expect(await deliveries().fanOut(2)).toBe(2);
        expect((await deliveriesOf(endpoint)).map((d) => d.eventId).sort()).toEqual(
          events.map((e) => e.id).sort(),
        );
        expect(await deliveries().fanOut(2)).toBe(1);
        expect((await deliveriesOf(endpoint)).map((d) => d.eventId)).toContain(third?.id);
      });

      it('two concurrent fan-outs take disjoint events: each delivery exists once', async ({ skip }) => {
        if (!database().concurrentSessions) skip('one connection: transactions cannot overlap');
        const workspaceId = await newWorkspace(knex());
        const endpoint = await newEndpoint(workspaceId);
        const written: OutboxEvent[] = [];
        for (let i = 0; i < 12; i++)
          written.push(...(await append(workspaceId, newId('booking'), 'booking.created')));
        const taken = await Promise.all([deliveries().fanOut(8), deliveries().fanOut(8)]);
        expect(taken[0] + taken[1] + (await deliveries().fanOut(8))).toBe(12);
        const fanned = await deliveriesOf(endpoint);
        expect(fanned.map((d) => d.eventId).sort()).toEqual(written.map((e) => e.id).sort());
      });

      it('skips an event another fan-out holds, and a later event of its aggregate waits for it', async ({
        skip,
      }) => {
        if (!database().concurrentSessions) skip('one connection: transactions cannot overlap');
        const workspaceId = await newWorkspace(knex());
        const endpoint = await newEndpoint(workspaceId);
        const bookingId = newId('booking');
        const [first, second] = await append(workspaceId, bookingId, 'booking.created', 'booking.confirmed');
        const [unrelated] = await append(workspaceId, newId('booking'), 'booking.created');
        const held = signal();
        const release = signal();
        const holder = withTransaction(knex(), async (trx) => {
          await trx('outbox_events').where({ id: first?.id }).forUpdate();
          held.fire();
          await release.promise;
        });
        await held.promise;
        try {
          expect(await deliveries().fanOut(10)).toBe(2);
          // The second event's delivery exists, but its aggregate's first event is not fanned out yet.
          const claimed = await deliveries().claimDue(soon(), 10, LEASE_MS);
          expect(claimed.map((c) => c.event.id)).toEqual([unrelated?.id]);
        } finally {
          release.fire();
          await holder;
        }
        expect(await deliveries().fanOut(10)).toBe(1);
        const claimed = await deliveries().claimDue(soon(), 10, LEASE_MS);
        expect(claimed.map((c) => c.event.id)).toEqual([first?.id]);
        expect((await deliveriesOf(endpoint)).map((d) => d.eventId).sort()).toEqual(
          [first?.id, second?.id, unrelated?.id].sort(),
        );
      });
    });

    describe('claims', () => {
      it('claims a due delivery with its endpoint and envelope, and leases it', async () => {
        const workspaceId = await newWorkspace(knex());
        const endpoint = await newEndpoint(workspaceId);
        const [sent] = await append(workspaceId, newId('booking'), 'booking.created');
        await deliveries().fanOut(10);
        const [pending] = await deliveriesOf(endpoint);
        const now = soon();
        const claimed = await deliveries().claimDue(now, 10, LEASE_MS);
        expect(claimed).toEqual([{ delivery: pending, endpoint, event: sent }]);
        expect(await deliveries().claimDue(plus(now, LEASE_MS - 1), 10, LEASE_MS)).toEqual([]);
        expect(await deliveries().claimDue(plus(now, LEASE_MS), 10, LEASE_MS)).toEqual([]);
        // The lease has passed: the worker holding it is presumed dead, another takes it.
        expect(claimedIds(await deliveries().claimDue(plus(now, LEASE_MS + 1), 10, LEASE_MS))).toEqual([
          pending?.id,
        ]);
      });

      it('a renewed lease holds the delivery past its first end; once recorded it is no longer renewed', async () => {
        const workspaceId = await newWorkspace(knex());
        const endpoint = await newEndpoint(workspaceId);
        await append(workspaceId, newId('booking'), 'booking.created');
        await deliveries().fanOut(10);
        const now = soon();
        const [claimed] = await deliveries().claimDue(now, 10, LEASE_MS);
        const id = claimed?.delivery.id as string;
        const firstEnd = plus(now, LEASE_MS);
        const renewedEnd = plus(now, 2 * LEASE_MS);
        // An id that was never claimed under this lease is not renewed: the lease's end is the token.
        expect(await deliveries().renewLeases([id, newId('webhookDelivery')], firstEnd, renewedEnd)).toEqual([
          id,
        ]);
        expect(await deliveries().claimDue(plus(firstEnd, 1), 10, LEASE_MS)).toEqual([]);
        // A holder that kept the old end no longer matches.
        expect(await deliveries().renewLeases([id], firstEnd, plus(now, 3 * LEASE_MS))).toEqual([]);
        await deliveries().recordAttempt(id, {
          status: 'SUCCEEDED',
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 204,
          lastError: null,
          deliveredAt: now,
        });
        expect(await deliveries().renewLeases([id], renewedEnd, plus(now, 3 * LEASE_MS))).toEqual([]);
        expect((await deliveriesOf(endpoint)).map((d) => d.status)).toEqual(['SUCCEEDED']);
      });

      it('a lease that ran out and was claimed by another worker is not renewed by the first', async () => {
        const workspaceId = await newWorkspace(knex());
        await newEndpoint(workspaceId);
        await append(workspaceId, newId('booking'), 'booking.created');
        await deliveries().fanOut(10);
        const now = soon();
        const [first] = await deliveries().claimDue(now, 10, LEASE_MS);
        const id = first?.delivery.id as string;
        // The first worker stalled: its lease passed and a second worker took the delivery.
        const later = plus(now, LEASE_MS + 1);
        expect(claimedIds(await deliveries().claimDue(later, 10, LEASE_MS))).toEqual([id]);
        expect(await deliveries().renewLeases([id], plus(now, LEASE_MS), plus(later, LEASE_MS))).toEqual([]);
        // The second worker's lease holds, and it can renew it.
        expect(await deliveries().claimDue(plus(later, LEASE_MS), 10, LEASE_MS)).toEqual([]);
        expect(
          await deliveries().renewLeases([id], plus(later, LEASE_MS), plus(later, 2 * LEASE_MS)),
        ).toEqual([id]);
      });

      it('waits for next_attempt_at and skips disabled endpoints', async () => {
        const workspaceId = await newWorkspace(knex());
        const endpoint = await newEndpoint(workspaceId);
        await append(workspaceId, newId('booking'), 'booking.created');
        await deliveries().fanOut(10);
        const [pending] = await deliveriesOf(endpoint);
        const id = pending?.id as string;
        const retryAt = new Date(Date.now() + 3_600_000);
        await deliveries().recordAttempt(id, {
          status: 'PENDING',
          attempts: 1,
          nextAttemptAt: retryAt,
          lastStatusCode: 500,
          lastError: 'Internal Server Error',
          deliveredAt: null,
        });
        expect(await deliveries().claimDue(plus(retryAt, -1), 10, LEASE_MS)).toEqual([]);
        await endpoints().update(workspaceId, endpoint.id, { enabled: false });
        expect(await deliveries().claimDue(retryAt, 10, LEASE_MS)).toEqual([]);
        await endpoints().update(workspaceId, endpoint.id, { enabled: true });
        const [claimed] = await deliveries().claimDue(retryAt, 10, LEASE_MS);
        expect(claimed?.delivery).toMatchObject({
          id,
          attempts: 1,
          nextAttemptAt: retryAt.toISOString(),
          lastStatusCode: 500,
          lastError: 'Internal Server Error',
          lastAttemptAt: expect.stringMatching(ISO_MS),
        });
      });

      it('keeps order per aggregate: the next event waits while an earlier one is PENDING, other aggregates do not', async () => {
        const workspaceId = await newWorkspace(knex());
        await newEndpoint(workspaceId);
        const bookingA = newId('booking');
        const [createdA, confirmedA] = await append(
          workspaceId,
          bookingA,
          'booking.created',
          'booking.confirmed',
        );
        const [createdB] = await append(workspaceId, newId('booking'), 'booking.created');
        await deliveries().fanOut(10);
        const now = soon();
        const first = await deliveries().claimDue(now, 10, LEASE_MS);
        expect(first.map((c) => c.event.id)).toEqual([createdA?.id, createdB?.id]);
        // In flight (leased) still blocks the next one.
        expect(await deliveries().claimDue(plus(now, 1), 10, LEASE_MS)).toEqual([]);
        const [a] = first;
        await deliveries().recordAttempt(a?.delivery.id as string, {
          status: 'PENDING',
          attempts: 1,
          nextAttemptAt: plus(now, 10_000),
          lastStatusCode: null,
          lastError: 'timeout',
          deliveredAt: null,
        });
        expect(await deliveries().claimDue(plus(now, 1), 10, LEASE_MS)).toEqual([]);
        await deliveries().recordAttempt(a?.delivery.id as string, {
          status: 'SUCCEEDED',
          attempts: 2,
          nextAttemptAt: null,
          lastStatusCode: 204,
          lastError: null,
          deliveredAt: now,
        });
        const next = await deliveries().claimDue(plus(now, 1), 10, LEASE_MS);
        expect(next.map((c) => c.event.id)).toEqual([confirmedA?.id]);
      });

      it('a FAILED earlier delivery no longer holds the aggregate back', async () => {
        const workspaceId = await newWorkspace(knex());
        await newEndpoint(workspaceId);
        const [, confirmed] = await append(
          workspaceId,
          newId('booking'),
          'booking.created',
          'booking.confirmed',
        );
        await deliveries().fanOut(10);
        const now = soon();
        const [first] = await deliveries().claimDue(now, 10, LEASE_MS);
        await deliveries().recordAttempt(first?.delivery.id as string, {
          status: 'FAILED',
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 500,
          lastError: null,
          deliveredAt: null,
        });
        const next = await deliveries().claimDue(now, 10, LEASE_MS);
        expect(next.map((c) => c.event.id)).toEqual([confirmed?.id]);
      });

      it('concurrent claims never return the same delivery', async ({ skip }) => {
        if (!database().concurrentSessions) skip('one connection: transactions cannot overlap');
        const workspaceId = await newWorkspace(knex());
        const endpoint = await newEndpoint(workspaceId);
        for (let i = 0; i < 12; i++) await append(workspaceId, newId('booking'), 'booking.created');
        await deliveries().fanOut(100);
        const now = soon();
        const claims = await Promise.all(
          Array.from({ length: 4 }, () => deliveries().claimDue(now, 4, LEASE_MS)),
        );
        const ids = claims.flatMap(claimedIds);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.length).toBe(12);
        expect(new Set(ids)).toEqual(new Set((await deliveriesOf(endpoint)).map((d) => d.id)));
      });
    });

    describe('attempts, listing and resend', () => {
      it('recordAttempt writes the outcome and frees the lease; resend queues it again, due now', async () => {
        const workspaceId = await newWorkspace(knex());
        const endpoint = await newEndpoint(workspaceId);
        await append(workspaceId, newId('booking'), 'booking.created');
        await deliveries().fanOut(10);
        const now = soon();
        const [claimed] = await deliveries().claimDue(now, 10, LEASE_MS);
        const id = claimed?.delivery.id as string;
        const deliveredAt = new Date('2030-08-01T10:00:01.234Z');
        await deliveries().recordAttempt(id, {
          status: 'SUCCEEDED',
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 200,
          lastError: null,
          deliveredAt,
        });
        const [done] = await deliveriesOf(endpoint);
        expect(done).toEqual({
          ...claimed?.delivery,
          status: 'SUCCEEDED',
          attempts: 1,
          nextAttemptAt: null,
          lastStatusCode: 200,
          lastError: null,
          deliveredAt: deliveredAt.toISOString(),
          lastAttemptAt: expect.stringMatching(ISO_MS),
        });
        expect((await knex()('webhook_deliveries').where({ id }).first()).locked_until).toBeNull();
        expect(await deliveries().claimDue(plus(now, LEASE_MS + 1), 10, LEASE_MS)).toEqual([]);
        // A late result for the same attempt (a worker whose lease ran out) is dropped.
        await deliveries().recordAttempt(id, {
          status: 'PENDING',
          attempts: 1,
          nextAttemptAt: plus(now, 60_000),
          lastStatusCode: 500,
          lastError: 'stale worker',
          deliveredAt: null,
        });
        expect((await deliveriesOf(endpoint))[0]).toEqual(done);

        const other = await newWorkspace(knex());
        expect(await deliveries().resend(other, endpoint.id, id, now)).toBeNull();
        expect(await deliveries().resend(workspaceId, newId('webhookEndpoint'), id, now)).toBeNull();
        expect(await deliveries().resend(workspaceId, endpoint.id, newId('webhookDelivery'), now)).toBeNull();
        const resent = await deliveries().resend(workspaceId, endpoint.id, id, now);
        expect(resent).toEqual({
          ...done,
          status: 'PENDING',
          nextAttemptAt: now.toISOString(),
          deliveredAt: null,
        });
        expect(claimedIds(await deliveries().claimDue(now, 10, LEASE_MS))).toEqual([id]);
      });

      it("lists an endpoint's deliveries newest first across pages; not from another workspace", async () => {
        const workspaceId = await newWorkspace(knex());
        const endpoint = await newEndpoint(workspaceId);
        for (let i = 0; i < 3; i++) await append(workspaceId, newId('booking'), 'booking.created');
        await deliveries().fanOut(1);
        await deliveries().fanOut(10);
        const pages = await allPages((after) =>
          deliveries().list(workspaceId, endpoint.id, { limit: 2, after }),
        );
        expect(pages.map((page) => page.length)).toEqual([2, 1]);
        const listed = pages.flat();
        const order = [...listed].sort((a, b) =>
          a.createdAt === b.createdAt ? (a.id < b.id ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
        );
        expect(listed).toEqual(order);
        const other = await newWorkspace(knex());
        expect((await deliveries().list(other, endpoint.id, { limit: 10, after: null })).items).toEqual([]);
      });

      it("deleting an endpoint removes its deliveries and leaves others' alone", async () => {
        const workspaceId = await newWorkspace(knex());
        const doomed = await newEndpoint(workspaceId);
        const kept = await newEndpoint(workspaceId);
        await append(workspaceId, newId('booking'), 'booking.created', 'booking.confirmed');
        await deliveries().fanOut(10);
        expect(await endpoints().delete(workspaceId, doomed.id)).toBe(true);
        expect(await knex()('webhook_deliveries').where({ endpoint_id: doomed.id })).toEqual([]);
        expect(await deliveriesOf(kept)).toHaveLength(2);
      });
    });
  });
}
