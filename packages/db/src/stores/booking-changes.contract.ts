import type { PaymentSession } from '@travelops/domain/payments';
import { newId, ok } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { createStores, createUnitOfWork } from '../unit-of-work.js';
import {
  type BookingScene,
  type ContractDatabase,
  newBooking,
  newBookingScene,
  unwrap,
} from './contract-fixtures.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Longer than the feed's margin behind the oldest running transaction. */
const PAST_MARGIN_MS = 1_200;

/** A promise and the function that settles it: lets one transaction wait for another's step. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

/** Partner sync (`listChanges`) and the hold's payment pages; runs inside `describeStoreContract`. */
export function describeBookingChangesContract(database: () => ContractDatabase): void {
  const knex = (): Knex => database().knex;
  const stores = () => createStores(knex());
  const uow = () => createUnitOfWork(knex());
  const stamp = (id: string, updatedAt: string) =>
    knex()('bookings')
      .where({ id })
      .update({ updated_at: new Date(updatedAt) });

  describe('listChanges (partner sync)', () => {
    it('lists changes since an instant by updatedAt then id, pages without gaps, and says where to resume', async () => {
      const scene = await newBookingScene(knex());
      const made = [];
      for (let i = 0; i < 5; i++) made.push(await newBooking(knex(), scene));
      const [a, b, c, d, e] = made.map((booking) => booking.id).sort() as [
        string,
        string,
        string,
        string,
        string,
      ];
      // Ties on updatedAt are ordered by id; `e` changed before the instant asked for.
      await stamp(c, '2001-01-01T10:00:00.000Z');
      await stamp(a, '2001-01-01T10:00:00.001Z');
      await stamp(b, '2001-01-01T10:00:00.001Z');
      await stamp(d, '2001-01-01T11:00:00.000Z');
      await stamp(e, '2001-01-01T09:59:59.999Z');
      const since = '2001-01-01T10:00:00.000Z';
      const { bookings } = stores();

      const first = await bookings.listChanges(scene.workspaceId, {}, since, { limit: 2, after: null });
      expect(first.items.map((x) => x.id)).toEqual([c, a]);
      expect(first).toMatchObject({ hasMore: true, next: { value: '2001-01-01T10:00:00.001Z', id: a } });
      const second = await bookings.listChanges(scene.workspaceId, {}, since, {
        limit: 2,
        after: first.next,
      });
      expect(second.items.map((x) => x.id)).toEqual([b, d]);
      // The last page still says where to resume: after the last change seen.
      expect(second).toMatchObject({ hasMore: false, next: { value: '2001-01-01T11:00:00.000Z', id: d } });
      const quiet = await bookings.listChanges(scene.workspaceId, {}, since, {
        limit: 2,
        after: second.next,
      });
      expect(quiet).toEqual({ items: [], hasMore: false, next: second.next });

      // A booking changed again shows again, once, at its new place.
      await stamp(a, '2001-01-01T12:00:00.000Z');
      const resumed = await bookings.listChanges(scene.workspaceId, {}, since, {
        limit: 2,
        after: second.next,
      });
      expect(resumed.items.map((x) => [x.id, x.updatedAt])).toEqual([[a, '2001-01-01T12:00:00.000Z']]);

      // Nothing yet, no cursor: resuming from `since` itself, which stays included.
      const none = await bookings.listChanges(scene.workspaceId, {}, '2001-01-01T13:00:00.000Z', {
        limit: 2,
        after: null,
      });
      expect(none).toEqual({
        items: [],
        hasMore: false,
        next: { value: '2001-01-01T13:00:00.000Z', id: '' },
      });
      await stamp(b, '2001-01-01T13:00:00.000Z');
      const atSince = await bookings.listChanges(scene.workspaceId, {}, since, {
        limit: 5,
        after: none.next,
      });
      expect(atSince.items.map((x) => x.id)).toEqual([b]);
    });

    it('filters as the list does (externalReference exactly, status) and stays in its workspace', async () => {
      const scene = await newBookingScene(knex());
      const other = await newBookingScene(knex());
      const tagged = await newBooking(knex(), scene, { status: 'CONFIRMED' });
      unwrap(await stores().bookings.claimExternalReference(scene.workspaceId, tagged.id, 'OTA-1'));
      const plain = await newBooking(knex(), scene);
      const foreign = await newBooking(knex(), other);
      unwrap(await stores().bookings.claimExternalReference(other.workspaceId, foreign.id, 'OTA-1'));
      for (const id of [tagged.id, plain.id, foreign.id]) await stamp(id, '2001-02-01T00:00:00.000Z');
      const ids = async (filter: Parameters<ReturnType<typeof stores>['bookings']['listChanges']>[1]) =>
        (
          await stores().bookings.listChanges(scene.workspaceId, filter, '2001-01-01T00:00:00.000Z', {
            limit: 10,
            after: null,
          })
        ).items.map((x) => x.id);
      expect(await ids({ externalReference: 'OTA-1' })).toEqual([tagged.id]);
      expect(await ids({ externalReference: 'ota-1' })).toEqual([]);
      expect(await ids({ status: 'PENDING' })).toEqual([plain.id]);
      expect((await ids({})).sort()).toEqual([tagged.id, plain.id].sort());
      const listed = await stores().bookings.list(
        scene.workspaceId,
        { externalReference: 'OTA-1' },
        '-createdAt',
        {
          limit: 10,
          after: null,
        },
      );
      expect(listed.items.map((x) => x.id)).toEqual([tagged.id]);
    });

    it('a change made just now is listed only once the margin has passed', async () => {
      const scene = await newBookingScene(knex());
      const booking = await newBooking(knex(), scene);
      const changes = () =>
        stores().bookings.listChanges(scene.workspaceId, {}, '2001-01-01T00:00:00.000Z', {
          limit: 10,
          after: null,
        });
      expect((await changes()).items).toEqual([]);
      await pause(PAST_MARGIN_MS);
      expect((await changes()).items.map((x) => x.id)).toEqual([booking.id]);
    });

    it('a transaction that started first and commits last is not skipped: the feed waits for it', async ({
      skip,
    }) => {
      if (!database().concurrentSessions) skip('one connection: transactions cannot overlap');
      const scene = await newBookingScene(knex());
      const slow = await newBooking(knex(), scene);
      const fast = await newBooking(knex(), scene);
      const since = new Date(Date.now() - 60_000).toISOString();
      await stamp(slow.id, since);
      await stamp(fast.id, since);
      await pause(PAST_MARGIN_MS);
      const { bookings } = stores();
      const start = await bookings.listChanges(scene.workspaceId, {}, since, { limit: 10, after: null });
      expect(start.items.map((x) => x.id).sort()).toEqual([slow.id, fast.id].sort());

      // `slow` is changed by a transaction that starts now (its updatedAt) and commits last.
      const wrote = signal();
      const commit = signal();
      const slowWrite = uow().transaction(async ({ stores: tx }) => {
        await tx.bookings.update(scene.workspaceId, slow.id, { notes: 'slow' });
        wrote.fire();
        await commit.promise;
        return ok(true);
      });
      await wrote.promise;
      await pause(20);
      await bookings.update(scene.workspaceId, fast.id, { notes: 'fast' });
      await pause(PAST_MARGIN_MS);
      // A plain keyset would now list `fast` and move past `slow`'s updatedAt for good.
      const during = await bookings.listChanges(scene.workspaceId, {}, since, {
        limit: 10,
        after: start.next,
      });
      expect(during.items).toEqual([]);
      expect(during.next).toEqual(start.next);

      commit.fire();
      expect(await slowWrite).toEqual(ok(true));
      await pause(PAST_MARGIN_MS);
      const after = await bookings.listChanges(scene.workspaceId, {}, since, {
        limit: 10,
        after: during.next,
      });
      expect(after.items.map((x) => [x.id, x.notes])).toEqual([
        [slow.id, 'slow'],
        [fast.id, 'fast'],
      ]);
      expect((after.items[0]?.updatedAt ?? '') < (after.items[1]?.updatedAt ?? '')).toBe(true);
    });
  });

  describe('payment pages follow the hold', () => {
    const session = (scene: BookingScene, bookingId: string, extra: Partial<PaymentSession> = {}) => ({
      id: `ps_${newId('booking')}`,
      token: `pst_${newId('booking')}`,
      workspaceId: scene.workspaceId,
      bookingId,
      amount: 9000,
      currency: 'EUR',
      purpose: 'FULL' as const,
      openedBy: 'operator' as const,
      status: 'OPEN' as const,
      expiresAt: new Date('2030-08-01T10:30:00.000Z'),
      ...extra,
    });

    it("extendOpenSessions moves the booking's OPEN pages to the new expiry, no other page", async () => {
      const scene = await newBookingScene(knex());
      const booking = await newBooking(knex(), scene);
      const other = await newBooking(knex(), scene);
      const { payments } = stores();
      const open = await payments.insertSession(session(scene, booking.id));
      const done = await payments.insertSession(session(scene, booking.id, { status: 'SUCCEEDED' }));
      const elsewhere = await payments.insertSession(session(scene, other.id));
      const until = new Date('2030-08-01T11:00:00.000Z');
      await payments.extendOpenSessions(booking.id, until);
      expect((await payments.findSessionByToken(open.token))?.expiresAt).toEqual(until);
      expect((await payments.findSessionByToken(done.token))?.expiresAt).toEqual(done.expiresAt);
      expect((await payments.findSessionByToken(elsewhere.token))?.expiresAt).toEqual(elsewhere.expiresAt);
    });
  });
}
