import { BOOKING_SORTS, type BookingRecord } from '@travelops/domain/bookings';
import type { Departure, SeatRefusal } from '@travelops/domain/catalog';
import type { OutboxEvent } from '@travelops/domain/events';
import { runIdempotently } from '@travelops/domain/idempotency';
import type { PaymentSession } from '@travelops/domain/payments';
import { conflict, fail, newId, ok, unprocessable } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { withTransaction } from '../database.js';
import { createStores, createUnitOfWork } from '../unit-of-work.js';
import {
  allPages,
  type BookingScene,
  bookingFields,
  type ContractDatabase,
  compare,
  errorOf,
  ISO_MS,
  newBooking,
  newBookingScene,
  newCustomer,
  newDeparture,
  newTour,
  newWorkspace,
  participant,
  unwrap,
} from './contract-fixtures.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and the function that settles it: lets one transaction wait for another's step. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire: () => void = () => {};
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

/** Until some session of this database waits for a lock of `event` (`transactionid`, `advisory`, ...). */
async function untilWaiting(knex: Knex, event: string): Promise<void> {
  for (;;) {
    const { rows } = await knex.raw(
      `select count(*)::int as waiting from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock' and wait_event = ?`,
      [event],
    );
    if (rows[0].waiting > 0) return;
    await pause(10);
  }
}

/** Booking, history, payment, outbox and idempotency rules; runs inside `describeStoreContract`. */
export function describeBookingStoreContract(database: () => ContractDatabase): void {
  const knex = (): Knex => database().knex;
  const stores = () => createStores(knex());
  const uow = () => createUnitOfWork(knex());
  const bookedSeats = async (id: string): Promise<number> =>
    (await knex()('availability').where({ id }).first('booked_seats')).booked_seats;

  describe('seats', () => {
    it('adjustBookedSeats moves seats, refuses overbooking with a CONFLICT on participants', async () => {
      const scene = await newBookingScene(knex());
      const { departures } = stores();
      const { workspaceId, availabilityId } = scene;
      expect(unwrap(await departures.adjustBookedSeats(workspaceId, availabilityId, 7))).toMatchObject({
        bookedSeats: 7,
        seatsRemaining: 3,
      });
      expect(errorOf(await departures.adjustBookedSeats(workspaceId, availabilityId, 4))).toEqual(
        conflict('Not enough seats left on this departure.', 'participants', 'insufficient_seats'),
      );
      expect(errorOf(await departures.adjustBookedSeats(workspaceId, availabilityId, -8)).code).toBe(
        'CONFLICT',
      );
      expect(unwrap(await departures.adjustBookedSeats(workspaceId, availabilityId, -7)).bookedSeats).toBe(0);
      const other = await newWorkspace(knex());
      expect(errorOf(await departures.adjustBookedSeats(other, availabilityId, 1)).code).toBe('NOT_FOUND');
      expect(errorOf(await departures.adjustBookedSeats(workspaceId, newId('availability'), 1)).code).toBe(
        'NOT_FOUND',
      );
      expect(await departures.lock(other, availabilityId)).toBeNull();
    });

    it('findForBooking reads the departure, its tour and the blackouts of its day at once; null elsewhere', async () => {
      const scene = await newBookingScene(knex(), '2030-09-01T23:30:00.000Z');
      const { workspaceId, tourId, availabilityId } = scene;
      const s = stores();
      const otherTour = await newTour(knex(), workspaceId, 'other');
      const blackout = async (date: string, tour: string | null) =>
        unwrap(
          await s.blackoutDates.insert(workspaceId, {
            id: newId('blackoutDate'),
            tourId: tour,
            date,
            reason: null,
          }),
        );
      // Its UTC date and a day either side (the rule picks the tour's local day among them).
      await blackout('2030-08-31', tourId);
      await blackout('2030-09-02', null);
      await blackout('2030-09-01', otherTour);
      await blackout('2030-09-03', null);
      await blackout('2030-08-30', tourId);

      const read = await s.departures.findForBooking(workspaceId, availabilityId);
      const { heldSeats: _, ...departure } = (await s.departures.findById(
        workspaceId,
        availabilityId,
      )) as Departure;
      expect(read).toEqual({
        departure,
        tour: await s.tours.findById(workspaceId, tourId),
        blackouts: [
          { date: '2030-08-31', tourId },
          { date: '2030-09-02', tourId: null },
        ],
        version: 1,
        sharedSeats: null,
      });
      expect(await s.departures.findForBooking(await newWorkspace(knex()), availabilityId)).toBeNull();
      expect(await s.departures.findForBooking(workspaceId, newId('availability'))).toBeNull();
    });

    it('the version counts edits of a departure, not its seats', async () => {
      const { workspaceId, availabilityId } = await newBookingScene(knex());
      const s = stores();
      const versionOf = async () => (await s.departures.findForBooking(workspaceId, availabilityId))?.version;
      expect(await versionOf()).toBe(1);
      unwrap(await s.departures.adjustBookedSeats(workspaceId, availabilityId, 2));
      expect(await s.departures.takeSeats(workspaceId, availabilityId, 1, 1)).toEqual(ok(true));
      unwrap(await s.departures.updateWith(workspaceId, availabilityId, () => ok({})));
      expect(await versionOf()).toBe(1);
      unwrap(await s.departures.updateWith(workspaceId, availabilityId, () => ok({ capacity: 12 })));
      expect(await versionOf()).toBe(2);
      unwrap(
        await s.departures.updateWith(workspaceId, availabilityId, () => ok({ status: 'DELAYED' as const })),
      );
      expect(await versionOf()).toBe(3);
      await s.schedules.resizeDepartures(workspaceId, [availabilityId], 14);
      expect(await versionOf()).toBe(4);
      await s.schedules.cancelDepartures(workspaceId, [availabilityId]);
      expect(await versionOf()).toBe(5);
    });

    it('takeSeats takes seats only at the version read and while they last; a refusal takes nothing', async () => {
      const { workspaceId, availabilityId } = await newBookingScene(knex());
      const { departures } = stores();
      expect(await departures.takeSeats(workspaceId, availabilityId, 3, 1)).toEqual(ok(true));
      expect(await departures.takeSeats(workspaceId, availabilityId, 7, 1)).toEqual(ok(true));
      expect(await bookedSeats(availabilityId)).toBe(10);
      expect(await departures.takeSeats(workspaceId, availabilityId, 1, 1)).toEqual(
        fail({ reason: 'sold_out', seatsRemaining: 0 }),
      );
      unwrap(await departures.updateWith(workspaceId, availabilityId, () => ok({ capacity: 12 })));
      // Edited since version 1: whoever read that must decide again, even with seats to spare.
      expect(await departures.takeSeats(workspaceId, availabilityId, 1, 1)).toEqual(
        fail({ reason: 'stale' }),
      );
      expect(await departures.takeSeats(workspaceId, availabilityId, 3, 2)).toEqual(
        fail({ reason: 'sold_out', seatsRemaining: 2 }),
      );
      expect(await departures.takeSeats(workspaceId, availabilityId, 2, 2)).toEqual(ok(true));
      expect(await bookedSeats(availabilityId)).toBe(12);
      const other = await newWorkspace(knex());
      expect(await departures.takeSeats(other, availabilityId, 1, 2)).toEqual(fail({ reason: 'stale' }));
      expect(await departures.takeSeats(workspaceId, newId('availability'), 1, 1)).toEqual(
        fail({ reason: 'stale' }),
      );
    });

    it('thirty concurrent takeSeats of one seat at one version of a 10-seat departure: exactly 10 succeed', async () => {
      const { workspaceId, availabilityId } = await newBookingScene(knex());
      const results = await Promise.all(
        Array.from({ length: 30 }, () =>
          uow().transaction(async ({ stores: { departures } }) => {
            const taken = await departures.takeSeats(workspaceId, availabilityId, 1, 1);
            return ok<true | SeatRefusal>(taken.ok ? true : taken.error);
          }),
        ),
      );
      const outcomes = results.map((result) => unwrap(result));
      expect(outcomes.filter((outcome) => outcome === true)).toHaveLength(10);
      expect(outcomes.filter((outcome) => outcome !== true)).toEqual(
        Array(20).fill({ reason: 'sold_out', seatsRemaining: 0 }),
      );
      expect(await bookedSeats(availabilityId)).toBe(10);
    });

    it('takeSeats waits for an edit in flight, then finds its version stale', async ({ skip }) => {
      if (!database().concurrentSessions) skip('one connection: transactions cannot overlap');
      const { workspaceId, availabilityId } = await newBookingScene(knex());
      const edited = signal();
      const release = signal();
      const edit = uow().transaction(async ({ stores: { departures } }) => {
        const done = await departures.updateWith(workspaceId, availabilityId, () => ok({ capacity: 8 }));
        edited.fire();
        await release.promise;
        return done;
      });
      await edited.promise;
      const take = uow().transaction(async ({ stores: { departures } }) => {
        const taken = await departures.takeSeats(workspaceId, availabilityId, 1, 1);
        return ok<true | SeatRefusal>(taken.ok ? true : taken.error);
      });
      await untilWaiting(knex(), 'transactionid');
      release.fire();
      expect(unwrap(await edit).capacity).toBe(8);
      expect(await take).toEqual(ok({ reason: 'stale' }));
      expect(await bookedSeats(availabilityId)).toBe(0);
    });

    it('lock serialises seat writes but lets bookings of the departure be inserted meanwhile', async ({
      skip,
    }) => {
      if (!database().concurrentSessions) skip('one connection: transactions cannot overlap');
      const scene = await newBookingScene(knex());
      const { workspaceId, availabilityId } = scene;
      const locked = signal();
      const release = signal();
      const holder = uow().transaction(async ({ stores: { departures } }) => {
        await departures.lock(workspaceId, availabilityId);
        locked.fire();
        await release.promise;
        return ok(true);
      });
      await locked.promise;
      // A booking's insert (its foreign key's share lock) goes through while the lock is held.
      const booking = await newBooking(knex(), scene);
      const take = uow().transaction(async ({ stores: { departures } }) =>
        departures.takeSeats(workspaceId, availabilityId, booking.participantCount, 1),
      );
      await untilWaiting(knex(), 'transactionid');
      release.fire();
      expect(await holder).toEqual(ok(true));
      expect(await take).toEqual(ok(true));
      expect(await bookedSeats(availabilityId)).toBe(2);
    });

    it('a refused adjustment inside a transaction leaves it usable, and its other work commits', async () => {
      const { workspaceId, availabilityId } = await newBookingScene(knex());
      const outcome = await uow().transaction(async ({ stores: { departures } }) => {
        expect((await departures.lock(workspaceId, availabilityId))?.bookedSeats).toBe(0);
        unwrap(await departures.adjustBookedSeats(workspaceId, availabilityId, 8));
        const refused = await departures.adjustBookedSeats(workspaceId, availabilityId, 5);
        const applied = await departures.adjustBookedSeats(workspaceId, availabilityId, 2);
        return ok({ refused, applied });
      });
      const { refused, applied } = unwrap(outcome);
      expect(errorOf(refused).code).toBe('CONFLICT');
      expect(unwrap(applied).seatsRemaining).toBe(0);
      expect(await bookedSeats(availabilityId)).toBe(10);
    });

    it('thirty concurrent bookings of one seat on a 10-seat departure: exactly 10 succeed', async () => {
      const { workspaceId, availabilityId } = await newBookingScene(knex());
      const results = await Promise.all(
        Array.from({ length: 30 }, () =>
          uow().transaction(async ({ stores: { departures } }) => {
            if (!(await departures.lock(workspaceId, availabilityId))) throw new Error('departure missing');
            return departures.adjustBookedSeats(workspaceId, availabilityId, 1);
          }),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(10);
      expect(results.filter((result) => !result.ok).map((result) => errorOf(result).code)).toEqual(
        Array(20).fill('CONFLICT'),
      );
      expect(await bookedSeats(availabilityId)).toBe(10);
    });
  });

  describe('transaction', () => {
    const customerNames = async (workspaceId: string) =>
      (await stores().customers.list(workspaceId, {}, { limit: 50, after: null })).items
        .map((c) => c.name)
        .sort();
    const customer = (name: string) => ({
      id: newId('customer'),
      name,
      email: `${name.toLowerCase()}-${newId('customer')}@x.example`,
      phone: null,
      tags: [],
      marketingConsent: false,
    });

    it('commits the work when it returns ok', async () => {
      const workspaceId = await newWorkspace(knex());
      const result = await uow().transaction(async ({ stores: { customers } }) =>
        customers.insert(workspaceId, customer('A')),
      );
      expect(unwrap(result).name).toBe('A');
      expect(await customerNames(workspaceId)).toEqual(['A']);
    });

    it('rolls back and returns the failure when the work returns one', async () => {
      const workspaceId = await newWorkspace(knex());
      const refusal = unprocessable('No.', 'status', 'invalid_transition');
      const result = await uow().transaction(async ({ stores: { customers } }) => {
        unwrap(await customers.insert(workspaceId, customer('A')));
        return fail(refusal);
      });
      expect(result).toEqual(fail(refusal));
      expect(await customerNames(workspaceId)).toEqual([]);
    });

    it('rolls back and rethrows when the work throws', async () => {
      const workspaceId = await newWorkspace(knex());
      const bug = new Error('bug');
      const run = uow().transaction(async ({ stores: { customers } }) => {
        unwrap(await customers.insert(workspaceId, customer('A')));
        throw bug;
      });
      await expect(run).rejects.toBe(bug);
      expect(await customerNames(workspaceId)).toEqual([]);
    });

    it('a failure marked retryable rolls everything back and runs the work again, at most five times', async () => {
      const workspaceId = await newWorkspace(knex());
      let runs = 0;
      const result = await uow().transaction(async ({ stores: { customers } }) => {
        runs++;
        unwrap(await customers.insert(workspaceId, customer(`Run${runs}`)));
        return runs < 3 ? fail({ ...conflict('Lost a race.'), retryable: true }) : ok('done');
      });
      expect(result).toEqual(ok('done'));
      expect(runs).toBe(3);
      expect(await customerNames(workspaceId)).toEqual(['Run3']);
      runs = 0;
      const gaveUp = await uow().transaction(async () => {
        runs++;
        return fail({ ...conflict('Always lost.'), retryable: true });
      });
      expect(errorOf(gaveUp).message).toBe('Always lost.');
      expect(runs).toBe(5);
    });

    it('takeSeatsAtCommit: the seats go with the commit; refused, all rolls back and the work runs again', async () => {
      const scene = await newBookingScene(knex());
      const { workspaceId, availabilityId } = scene;
      const book = (count: number, version: number) => {
        let runs = 0;
        const done = uow().transaction(async ({ stores: s }) => {
          runs++;
          unwrap(await s.customers.insert(workspaceId, customer(`Seats${count}v${version}`)));
          await s.departures.takeSeatsAtCommit(workspaceId, availabilityId, count, version);
          return ok('answer');
        });
        return done.then((result) => ({ result, runs }));
      };
      expect(await book(4, 1)).toEqual({ result: ok('answer'), runs: 1 });
      expect(await bookedSeats(availabilityId)).toBe(4);
      // Full at the version read, or at a version since changed: refused at the commit each
      // time, so the work ran five times and nothing of it stayed.
      for (const [count, version] of [
        [7, 1],
        [1, 2],
      ] as const) {
        const refused = await book(count, version);
        expect(errorOf(refused.result)).toMatchObject({ code: 'CONFLICT', retryable: true });
        expect(refused.runs).toBe(5);
        expect(await customerNames(workspaceId)).toEqual(['Guest', 'Seats4v1']);
      }
      expect(await bookedSeats(availabilityId)).toBe(4);
    });

    it('on PostgreSQL the seat update travels with the COMMIT, in one statement after the work', async ({
      skip,
    }) => {
      if (!database().concurrentSessions) skip('PGlite runs it where it is queued');
      const scene = await newBookingScene(knex());
      const sent: string[] = [];
      const onQuery = (query: { sql: string }) => sent.push(query.sql);
      knex().on('query', onQuery);
      try {
        unwrap(
          await uow().transaction(async ({ stores: s }) => {
            await s.departures.takeSeatsAtCommit(scene.workspaceId, scene.availabilityId, 2, 1);
            await s.customers.refreshStatsAtCommit(scene.workspaceId, scene.customerId);
            unwrap(await s.customers.insert(scene.workspaceId, customer("O'Hara")));
            return ok(true);
          }),
        );
      } finally {
        knex().removeListener('query', onQuery);
      }
      const last = sent.at(-1) ?? '';
      expect(last).toMatch(
        /^select travelops_take_seats\('ws_\w+', 'avl_\w+', 2::integer, 1::integer\);\nupdate customers/,
      );
      expect(last).toMatch(/;\nCOMMIT$/);
      expect(sent.filter((sql) => /travelops_take_seats/.test(sql))).toHaveLength(1);
      expect(await bookedSeats(scene.availabilityId)).toBe(2);
    });

    it('a nested transaction joins the outer one: its failure, passed up, rolls back both', async () => {
      const workspaceId = await newWorkspace(knex());
      const result = await uow().transaction(async (outer) => {
        unwrap(await outer.stores.customers.insert(workspaceId, customer('A')));
        return outer.transaction(async ({ stores: { customers } }) => {
          unwrap(await customers.insert(workspaceId, customer('B')));
          return fail(conflict('Inner refusal.'));
        });
      });
      expect(errorOf(result).message).toBe('Inner refusal.');
      expect(await customerNames(workspaceId)).toEqual([]);
    });
  });

  describe('bookings', () => {
    it('inserts at version 1 and finds by id (in its workspace only), by public token and by lock', async () => {
      const scene = await newBookingScene(knex());
      const token = `pub_${newId('booking')}`;
      const input = bookingFields(scene, {
        publicToken: token,
        totalAmount: 1_000_000_000_000,
        addOns: [{ id: 'lunch', name: 'Lunch', unitPrice: 1500, quantity: 2 }],
        notes: 'Window seat',
        expiresAt: '2030-08-01T10:00:00.123Z',
      });
      const { bookings } = stores();
      const created = unwrap(await bookings.insert(input));
      expect(created).toEqual({
        ...input,
        version: 1,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(await bookings.findById(scene.workspaceId, created.id)).toEqual(created);
      expect(await bookings.findById(await newWorkspace(knex()), created.id)).toBeNull();
      expect(await bookings.findByPublicToken(token)).toEqual(created);
      expect(await bookings.findByPublicToken('unknown')).toBeNull();
      expect(await bookings.findByPublicToken('')).toBeNull();
      const locked = await withTransaction(knex(), (trx) =>
        createStores(trx).bookings.lock(scene.workspaceId, created.id),
      );
      expect(locked).toEqual(created);
      expect(
        await withTransaction(knex(), (trx) =>
          createStores(trx).bookings.lock(scene.workspaceId, newId('booking')),
        ),
      ).toBeNull();
    });

    it("insert writes the first history entry, payment page and a new customer's stats in its statement", async () => {
      const scene = await newBookingScene(knex());
      const input = bookingFields(scene, {
        paymentMode: 'CHECKOUT',
        paymentIntentId: newId('paymentSession'),
      });
      const history = {
        id: newId('history'),
        workspaceId: scene.workspaceId,
        bookingId: input.id,
        fromStatus: null,
        toStatus: 'PENDING' as const,
        reason: null,
        actor: { type: 'system' as const, id: null },
      };
      const paymentSession = {
        id: input.paymentIntentId as string,
        token: `tok_${newId('paymentSession')}`,
        workspaceId: scene.workspaceId,
        bookingId: input.id,
        amount: 9000,
        currency: 'EUR',
        purpose: 'FULL' as const,
        openedBy: 'operator' as const,
        status: 'OPEN' as const,
        expiresAt: new Date('2030-08-01T10:00:00.000Z'),
      };
      const s = stores();
      const created = unwrap(
        await s.bookings.insert(input, { history, paymentSession, refreshCustomerStats: true }),
      );
      expect(created).toMatchObject({ id: input.id, paymentIntentId: paymentSession.id, version: 1 });
      const page = await s.bookingHistory.list(scene.workspaceId, input.id, { limit: 10, after: null });
      const { workspaceId: _, ...entry } = history;
      expect(page.items).toEqual([{ ...entry, createdAt: expect.stringMatching(ISO_MS) }]);
      expect(await s.payments.findSessionById(paymentSession.id)).toMatchObject({
        ...paymentSession,
        completedAt: null,
        providerReference: null,
      });
      expect(await s.customers.findById(scene.workspaceId, scene.customerId)).toMatchObject({
        totalBookings: 1,
        lifetimeValue: 0,
      });
      // Counted once: a second refresh agrees with what the statement wrote.
      await s.customers.refreshStats(scene.workspaceId, scene.customerId);
      expect(await s.customers.findById(scene.workspaceId, scene.customerId)).toMatchObject({
        totalBookings: 1,
      });
    });

    it('insert on a departure deleted since it was read fails, marked retryable', async () => {
      const scene = await newBookingScene(knex());
      await knex()('availability').where({ id: scene.availabilityId }).del();
      const result = await uow().transaction(async ({ stores: s }) =>
        s.bookings.insert(bookingFields(scene)),
      );
      expect(errorOf(result)).toMatchObject({ code: 'CONFLICT', retryable: true });
      expect(await knex()('bookings').where({ workspace_id: scene.workspaceId })).toEqual([]);
    });

    it("lockHolder needs a transaction; one client's holds on one departure queue, others do not", async ({
      skip,
    }) => {
      const availabilityId = newId('availability');
      await expect(stores().bookings.lockHolder(availabilityId, 'client-a')).rejects.toThrow(/transaction/);
      if (!database().concurrentSessions) skip('one connection: transactions cannot overlap');
      const held = signal();
      const release = signal();
      const order: string[] = [];
      const first = uow().transaction(async ({ stores: s }) => {
        await s.bookings.lockHolder(availabilityId, 'client-a');
        held.fire();
        await release.promise;
        order.push('first done');
        return ok(true);
      });
      await held.promise;
      const lock = (departure: string, holder: string) =>
        uow().transaction(async ({ stores: s }) => {
          await s.bookings.lockHolder(departure, holder);
          order.push(`${departure === availabilityId ? 'same' : 'other'} departure, ${holder}`);
          return ok(true);
        });
      await lock(availabilityId, 'client-b');
      await lock(newId('availability'), 'client-a');
      const twin = lock(availabilityId, 'client-a');
      await untilWaiting(knex(), 'advisory');
      release.fire();
      await Promise.all([first, twin]);
      expect(order).toEqual([
        'same departure, client-b',
        'other departure, client-a',
        'first done',
        'same departure, client-a',
      ]);
    });

    it('update writes only the patch keys, bumps the version and updatedAt', async () => {
      const scene = await newBookingScene(knex());
      const { bookings } = stores();
      const created = await newBooking(knex(), scene, { notes: 'keep me' });
      await pause(5);
      const participants = [participant('Grace')];
      const updated = await bookings.update(scene.workspaceId, created.id, {
        status: 'CONFIRMED',
        confirmedAt: '2030-08-01T10:00:00.000Z',
        participants,
        participantCount: 1,
        amountPaid: 9000,
        paymentStatus: 'PAID',
      });
      expect(updated).toEqual({
        ...created,
        status: 'CONFIRMED',
        confirmedAt: '2030-08-01T10:00:00.000Z',
        participants,
        participantCount: 1,
        amountPaid: 9000,
        paymentStatus: 'PAID',
        version: 2,
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(updated.updatedAt > created.updatedAt).toBe(true);
      const again = await bookings.update(scene.workspaceId, created.id, { notes: null });
      expect(again).toMatchObject({ notes: null, version: 3, status: 'CONFIRMED' });
      expect(await bookings.findById(scene.workspaceId, created.id)).toEqual(again);
    });

    it('the amount CHECKs refuse a refund above what was paid and a booking without participants', async () => {
      const scene = await newBookingScene(knex());
      const created = await newBooking(knex(), scene, { amountPaid: 100 });
      const { bookings } = stores();
      await expect(bookings.update(scene.workspaceId, created.id, { amountRefunded: 101 })).rejects.toThrow();
      await expect(bookings.insert(bookingFields(scene, { participantCount: 0 }))).rejects.toThrow();
      expect(await bookings.findById(scene.workspaceId, created.id)).toEqual(created);
    });

    it('pages through every sort, with ties in each, without duplicates or gaps', async () => {
      const scene = await newBookingScene(knex(), '2030-09-01T09:00:00.000Z');
      const later = await newDeparture(knex(), scene.workspaceId, scene.tourId, '2030-09-02T09:00:00.000Z');
      const at = (availabilityId: string, totalAmount: number) => ({
        availabilityId,
        startsAt: availabilityId === later ? '2030-09-02T09:00:00.000Z' : scene.startsAt,
        totalAmount,
      });
      // Two transactions: created_at (now()) ties within each; starts and totals tie across them.
      const insertAll = (rows: ReturnType<typeof at>[]) =>
        withTransaction(knex(), async (trx) => {
          const ids: string[] = [];
          for (const row of rows) ids.push((await newBooking(trx, scene, row)).id);
          return ids;
        });
      const first = await insertAll([
        at(scene.availabilityId, 5000),
        at(later, 5000),
        at(scene.availabilityId, 7000),
        at(later, 3000),
      ]);
      await pause(5);
      const second = await insertAll([
        at(scene.availabilityId, 5000),
        at(later, 7000),
        at(scene.availabilityId, 3000),
      ]);
      await pause(5);
      await withTransaction(knex(), async (trx) => {
        for (const id of [first[0], second[1]] as string[]) {
          await createStores(trx).bookings.update(scene.workspaceId, id, { notes: 'touched' });
        }
      });
      const all = (await Promise.all(
        [...first, ...second].map((id) => stores().bookings.findById(scene.workspaceId, id)),
      )) as BookingRecord[];

      for (const sort of BOOKING_SORTS) {
        const descending = sort.startsWith('-');
        const field = (descending ? sort.slice(1) : sort) as
          | 'createdAt'
          | 'startsAt'
          | 'totalAmount'
          | 'updatedAt';
        const expected = [...all]
          .sort((a, b) => compare(a[field], b[field]) || compare(a.id, b.id))
          .map((booking) => booking.id);
        if (descending) expected.reverse();
        const pages = await allPages((after) =>
          stores().bookings.list(scene.workspaceId, {}, sort, { limit: 2, after }),
        );
        expect(
          pages.map((page) => page.length),
          sort,
        ).toEqual([2, 2, 2, 1]);
        expect(
          pages.flat().map((booking) => booking.id),
          sort,
        ).toEqual(expected);
        expect(new Set(all.map((booking) => booking[field])).size, sort).toBeLessThan(all.length);
      }
      expect(
        await stores().bookings.list(await newWorkspace(knex()), {}, '-createdAt', { limit: 5, after: null }),
      ).toEqual({ items: [], hasMore: false, next: null });
    });

    it('filters by status, payment status and inclusive UTC dates of the departure', async () => {
      const scene = await newBookingScene(knex(), '2030-03-01T00:00:00.000Z');
      const departure = async (startsAt: string) => ({
        availabilityId: await newDeparture(knex(), scene.workspaceId, scene.tourId, startsAt),
        startsAt,
      });
      const dayStart = await newBooking(knex(), scene, { status: 'CONFIRMED', paymentStatus: 'PAID' });
      const dayEnd = await newBooking(knex(), scene, {
        ...(await departure('2030-03-01T23:59:59.999Z')),
        status: 'CONFIRMED',
      });
      const before = await newBooking(knex(), scene, await departure('2030-02-28T23:59:59.999Z'));
      const after = await newBooking(knex(), scene, {
        ...(await departure('2030-03-02T00:00:00.000Z')),
        paymentStatus: 'PAID',
      });
      const ids = async (filter: Parameters<ReturnType<typeof stores>['bookings']['list']>[1]) =>
        (
          await stores().bookings.list(scene.workspaceId, filter, 'startsAt', { limit: 50, after: null })
        ).items.map((booking) => booking.id);
      expect(await ids({ from: '2030-03-01', to: '2030-03-01' })).toEqual([dayStart.id, dayEnd.id]);
      expect(await ids({ from: '2030-03-01' })).toEqual([dayStart.id, dayEnd.id, after.id]);
      expect(await ids({ to: '2030-03-01' })).toEqual([before.id, dayStart.id, dayEnd.id]);
      expect(await ids({ status: 'CONFIRMED' })).toEqual([dayStart.id, dayEnd.id]);
      expect(await ids({ paymentStatus: 'PAID' })).toEqual([dayStart.id, after.id]);
      expect(await ids({ status: 'CONFIRMED', paymentStatus: 'PAID', to: '2030-03-01' })).toEqual([
        dayStart.id,
      ]);
      expect(await ids({ status: 'CANCELLED' })).toEqual([]);
    });

    it('findExpiredHolds: PENDING holds expired by now, oldest first, per workspace or departure', async () => {
      // Expiry times in 2001: no other test's holds (none expire, or they expire after 2030) match.
      const now = new Date('2001-01-01T12:00:00.000Z');
      const scene = await newBookingScene(knex());
      const otherDeparture = await newDeparture(knex(), scene.workspaceId, scene.tourId, scene.startsAt);
      const hold = (expiresAt: string | null, extra: Partial<BookingRecord> = {}) =>
        newBooking(knex(), scene, { expiresAt, ...extra });
      const elevenOClock = await hold('2001-01-01T11:00:00.000Z');
      const atNow = await hold('2001-01-01T12:00:00.000Z');
      await hold('2001-01-01T12:00:00.001Z');
      await hold('2001-01-01T10:00:00.000Z', { status: 'CONFIRMED' });
      await hold(null);
      const otherHold = await hold('2001-01-01T10:30:00.000Z', { availabilityId: otherDeparture });
      const foreign = await newBookingScene(knex());
      const foreignHold = await newBooking(knex(), foreign, { expiresAt: '2001-01-01T09:00:00.000Z' });

      const ids = async (options: { workspaceId?: string; availabilityId?: string; limit: number }) =>
        (await stores().bookings.findExpiredHolds(now, options)).map((booking) => booking.id);
      expect(await ids({ limit: 10 })).toEqual([foreignHold.id, otherHold.id, elevenOClock.id, atNow.id]);
      expect(await ids({ limit: 2 })).toEqual([foreignHold.id, otherHold.id]);
      expect(await ids({ workspaceId: scene.workspaceId, limit: 10 })).toEqual([
        otherHold.id,
        elevenOClock.id,
        atNow.id,
      ]);
      expect(
        await ids({ workspaceId: scene.workspaceId, availabilityId: scene.availabilityId, limit: 10 }),
      ).toEqual([elevenOClock.id, atNow.id]);
    });

    it("listByDeparture: the departure's bookings not CANCELLED, oldest first, in its workspace only", async () => {
      const scene = await newBookingScene(knex());
      const otherDeparture = await newDeparture(knex(), scene.workspaceId, scene.tourId, scene.startsAt);
      const first = await newBooking(knex(), scene, { status: 'CONFIRMED' });
      await newBooking(knex(), scene, { status: 'CANCELLED' });
      const second = await newBooking(knex(), scene);
      const third = await newBooking(knex(), scene, { status: 'NO_SHOW' });
      await newBooking(knex(), scene, { availabilityId: otherDeparture });
      // One created_at for two bookings: the id breaks the tie.
      await knex()('bookings')
        .whereIn('id', [second.id, third.id])
        .update({ created_at: '2030-01-01T00:00:00Z' });
      const [tieFirst, tieSecond] = [second.id, third.id].sort();
      const listed = await stores().bookings.listByDeparture(scene.workspaceId, scene.availabilityId);
      expect(listed.map((b) => b.id)).toEqual([first.id, tieFirst, tieSecond]);
      expect(listed[0]?.participants).toHaveLength(2);
      expect(
        await stores().bookings.listByDeparture(await newWorkspace(knex()), scene.availabilityId),
      ).toEqual([]);
    });
  });

  describe('customers for bookings', () => {
    const guest = (email: string) => ({
      id: newId('customer'),
      name: 'Zoe',
      email,
      phone: '+44 1',
      tags: ['web'],
      marketingConsent: false,
    });

    it('findByIds answers the workspace customers among the ids, and skips unknown and foreign ones', async () => {
      const workspaceId = await newWorkspace(knex());
      const { customers } = stores();
      const zoe = await customers.findOrCreateByEmail(workspaceId, guest('zoe.ids@example.com'));
      const max = await customers.findOrCreateByEmail(workspaceId, guest('max.ids@example.com'));
      const foreign = await customers.findOrCreateByEmail(await newWorkspace(knex()), guest('f@example.com'));
      const found = await customers.findByIds(workspaceId, [zoe.id, max.id, foreign.id, 'cus_unknown']);
      expect(found.map((c) => c.id).sort()).toEqual([zoe.id, max.id].sort());
      expect(found.find((c) => c.id === zoe.id)).toEqual(zoe);
      expect(await customers.findByIds(workspaceId, [])).toEqual([]);
    });

    it('findOrCreateByEmail finds the workspace customer in any letter case, else creates one', async () => {
      const workspaceId = await newWorkspace(knex());
      const { customers } = stores();
      const created = await customers.findOrCreateByEmail(workspaceId, guest('Zoe@Example.com'));
      expect(created).toMatchObject({ email: 'Zoe@Example.com', tags: ['web'], totalBookings: 0 });
      const found = await customers.findOrCreateByEmail(workspaceId, guest('zoe@example.COM'));
      expect(found).toEqual(created);
      const elsewhere = await customers.findOrCreateByEmail(
        await newWorkspace(knex()),
        guest('zoe@example.com'),
      );
      expect(elsewhere.id).not.toBe(created.id);
      const twins = await Promise.all(
        Array.from({ length: 5 }, (_, i) =>
          customers.findOrCreateByEmail(workspaceId, guest(`TWIN${i % 2}@x.example`)),
        ),
      );
      expect(new Set(twins.map((c) => c.email.toLowerCase()))).toEqual(
        new Set(['twin0@x.example', 'twin1@x.example']),
      );
      expect(new Set(twins.map((c) => c.id)).size).toBe(2);
    });

    it('refreshStats counts bookings not cancelled and sums paid minus refunded', async () => {
      const scene = await newBookingScene(knex());
      const otherCustomer = await newCustomer(knex(), scene.workspaceId);
      await newBooking(knex(), scene, { status: 'CONFIRMED', amountPaid: 5000, amountRefunded: 1000 });
      await newBooking(knex(), scene, { status: 'CANCELLED', amountPaid: 2000, amountRefunded: 1500 });
      await newBooking(knex(), scene, { status: 'PENDING' });
      await newBooking(knex(), scene, { status: 'COMPLETED', amountPaid: 3000 });
      await newBooking(knex(), { ...scene, customerId: otherCustomer }, { amountPaid: 9999 });
      const { customers } = stores();
      await customers.refreshStats(scene.workspaceId, scene.customerId);
      expect(await customers.findById(scene.workspaceId, scene.customerId)).toMatchObject({
        totalBookings: 3,
        lifetimeValue: 7500,
      });
      expect(await customers.findById(scene.workspaceId, otherCustomer)).toMatchObject({
        totalBookings: 0,
        lifetimeValue: 0,
      });
      const lonely = await newCustomer(knex(), scene.workspaceId);
      await customers.refreshStats(scene.workspaceId, lonely);
      expect(await customers.findById(scene.workspaceId, lonely)).toMatchObject({
        totalBookings: 0,
        lifetimeValue: 0,
      });
    });
  });

  describe('booking history', () => {
    it('lists entries in the order written (even within one transaction), pages without gaps', async () => {
      const scene = await newBookingScene(knex());
      const booking = await newBooking(knex(), scene);
      const steps = [
        [null, 'PENDING', { type: 'api_token', id: 'tok_1' }],
        ['PENDING', 'CONFIRMED', { type: 'guest', id: null }],
        ['CONFIRMED', 'CANCELLED', { type: 'member', id: 'mem_1' }],
        ['CANCELLED', 'CANCELLED', { type: 'system', id: null }],
        ['CANCELLED', 'CANCELLED', { type: 'system', id: null }],
      ] as const;
      const ids = await withTransaction(knex(), async (trx) => {
        const written: string[] = [];
        for (const [fromStatus, toStatus, actor] of steps) {
          const id = `bhe_${newId('booking')}`;
          await createStores(trx).bookingHistory.append({
            id,
            workspaceId: scene.workspaceId,
            bookingId: booking.id,
            fromStatus,
            toStatus,
            reason: toStatus === 'CANCELLED' ? 'Weather' : null,
            actor: { ...actor },
          });
          written.push(id);
        }
        return written;
      });
      // Writes in one millisecond share a timestamp; random ids must not reorder them.
      await knex()('booking_history')
        .where({ booking_id: booking.id })
        .update({ created_at: new Date('2030-08-01T10:00:00.000Z') });
      const pages = await allPages((after) =>
        stores().bookingHistory.list(scene.workspaceId, booking.id, { limit: 2, after }),
      );
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      const entries = pages.flat();
      expect(entries.map((entry) => entry.id)).toEqual(ids);
      expect(entries[1]).toEqual({
        id: ids[1],
        bookingId: booking.id,
        fromStatus: 'PENDING',
        toStatus: 'CONFIRMED',
        reason: null,
        actor: { type: 'guest', id: null },
        createdAt: expect.stringMatching(ISO_MS),
      });
      expect(entries[2]?.actor).toEqual({ type: 'member', id: 'mem_1' });
      const foreign = await stores().bookingHistory.list(await newWorkspace(knex()), booking.id, {
        limit: 10,
        after: null,
      });
      expect(foreign.items).toEqual([]);
    });
  });

  describe('payments', () => {
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

    it('sessions: insert, find by token, lock, complete, and expire the open ones of a booking', async () => {
      const scene = await newBookingScene(knex());
      const booking = await newBooking(knex(), scene);
      const { payments } = stores();
      const input = session(scene, booking.id);
      const created = await payments.insertSession(input);
      expect(created).toEqual({
        ...input,
        createdAt: expect.any(Date),
        completedAt: null,
        providerReference: null,
      });
      expect(await payments.findSessionByToken(input.token)).toEqual(created);
      expect(await payments.findSessionByToken('unknown')).toBeNull();
      expect(await payments.findSessionById(created.id)).toEqual(created);
      expect(await payments.findSessionById('ps_missing')).toBeNull();
      const completedAt = new Date('2030-08-01T10:05:00.123Z');
      const completed = await withTransaction(knex(), async (trx) => {
        const trxPayments = createStores(trx).payments;
        expect(await trxPayments.lockSession(created.id)).toEqual(created);
        return trxPayments.updateSession(created.id, { status: 'SUCCEEDED', completedAt });
      });
      expect(completed).toEqual({ ...created, status: 'SUCCEEDED', completedAt });
      expect(await payments.lockSession('ps_missing')).toBeNull();

      const open = await payments.insertSession(session(scene, booking.id, { purpose: 'BALANCE' }));
      const otherBooking = await newBooking(knex(), scene);
      const elsewhere = await payments.insertSession(session(scene, otherBooking.id));
      await payments.expireOpenSessions(booking.id);
      expect((await payments.findSessionByToken(open.token))?.status).toBe('EXPIRED');
      expect((await payments.findSessionByToken(created.token))?.status).toBe('SUCCEEDED');
      expect((await payments.findSessionByToken(elsewhere.token))?.status).toBe('OPEN');

      expect(await payments.setSessionReference(elsewhere.id, 'cs_test_1', null)).toBe(true);
      // A second visit that opened its own checkout meanwhile does not replace the first one's.
      expect(await payments.setSessionReference(elsewhere.id, 'cs_test_x', null)).toBe(false);
      expect(await payments.setSessionReference(elsewhere.id, 'cs_test_2', 'cs_test_1')).toBe(true);
      expect(await payments.findSessionById(elsewhere.id)).toEqual({
        ...elsewhere,
        providerReference: 'cs_test_2',
      });
    });

    it('records: listed oldest first per booking; a session pays once; amounts are positive', async () => {
      const scene = await newBookingScene(knex());
      const booking = await newBooking(knex(), scene);
      const { payments } = stores();
      const paid = await payments.insertSession(session(scene, booking.id));
      const record = (extra: { kind: 'PAYMENT' | 'REFUND'; amount: number; sessionId?: string | null }) => ({
        id: `pay_${newId('booking')}`,
        workspaceId: scene.workspaceId,
        bookingId: booking.id,
        sessionId: null,
        currency: 'EUR',
        reason: null,
        providerReference: null,
        ...extra,
      });
      const written = await withTransaction(knex(), async (trx) => {
        const trxPayments = createStores(trx).payments;
        const first = await trxPayments.insertPayment(
          record({ kind: 'PAYMENT', amount: 9000, sessionId: paid.id }),
        );
        const second = await trxPayments.insertPayment({
          ...record({ kind: 'REFUND', amount: 1000 }),
          reason: 'Late',
        });
        const rest = [];
        for (const amount of [500, 400, 300, 200]) {
          rest.push(await trxPayments.insertPayment(record({ kind: 'REFUND', amount })));
        }
        return [first, second, ...rest];
      });
      await knex()('payments')
        .where({ booking_id: booking.id })
        .update({ created_at: new Date('2030-08-01T10:00:00.000Z') });
      const sameMoment = new Date('2030-08-01T10:00:00.000Z');
      expect(written[1]).toMatchObject({
        kind: 'REFUND',
        amount: 1000,
        reason: 'Late',
        createdAt: expect.any(Date),
      });
      expect(await payments.listPayments(scene.workspaceId, booking.id)).toEqual(
        written.map((payment) => ({ ...payment, createdAt: sameMoment })),
      );
      expect(await payments.listPayments(await newWorkspace(knex()), booking.id)).toEqual([]);
      await expect(
        payments.insertPayment(record({ kind: 'PAYMENT', amount: 9000, sessionId: paid.id })),
      ).rejects.toThrow();
      await expect(payments.insertPayment(record({ kind: 'REFUND', amount: 0 }))).rejects.toThrow();
    });

    it("provider references: a provider's payment is recorded once; refunds draw on the newest first", async () => {
      const scene = await newBookingScene(knex());
      const booking = await newBooking(knex(), scene);
      const { payments } = stores();
      const record = (kind: 'PAYMENT' | 'REFUND', providerReference: string | null) => ({
        id: `pay_${newId('booking')}`,
        workspaceId: scene.workspaceId,
        bookingId: booking.id,
        sessionId: null,
        kind,
        amount: 1000,
        currency: 'EUR',
        reason: null,
        providerReference,
      });
      const deposit = await payments.insertPayment(record('PAYMENT', 'pi_deposit'));
      expect(deposit.providerReference).toBe('pi_deposit');
      await payments.insertPayment(record('PAYMENT', null));
      await payments.insertPayment(record('PAYMENT', 'pi_balance'));
      await payments.insertPayment(record('REFUND', 're_1 re_2'));
      expect(await payments.listPaymentReferences(booking.id)).toEqual(['pi_balance', 'pi_deposit']);
      expect(await payments.listPaymentReferences('bkg_missing')).toEqual([]);
      await expect(payments.insertPayment(record('PAYMENT', 'pi_deposit'))).rejects.toThrow();
      // Refund ids are not unique by index: several may share a row.
      await payments.insertPayment(record('REFUND', 're_1 re_2'));
    });
  });

  describe('provider events', () => {
    it('an event is claimed once per provider; a rolled-back claim can be claimed again', async () => {
      const eventId = `evt_${newId('booking')}`;
      const { providerEvents } = stores();
      await expect(
        withTransaction(knex(), async (trx) => {
          expect(await createStores(trx).providerEvents.claim('stripe', eventId, 'charge.refunded')).toBe(
            true,
          );
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await providerEvents.claim('stripe', eventId, 'charge.refunded')).toBe(true);
      expect(await providerEvents.claim('stripe', eventId, 'charge.refunded')).toBe(false);
      expect(await providerEvents.claim('other', eventId, 'charge.refunded')).toBe(true);
    });
  });

  describe('outbox', () => {
    const event = (workspaceId: string, type: OutboxEvent['type']): OutboxEvent => ({
      id: `evt_${newId('booking')}`,
      type,
      createdAt: '2030-08-01T10:00:00.123Z',
      workspaceId,
      data: { booking: { id: 'bkg_1', participants: [{ name: 'Ada' }] } },
    });

    it('stores the envelope as written, in order per aggregate; nothing from a rolled-back change', async () => {
      const workspaceId = await newWorkspace(knex());
      const aggregateId = newId('booking');
      const events = [event(workspaceId, 'booking.created'), event(workspaceId, 'booking.confirmed')];
      unwrap(
        await uow().transaction(async ({ stores: { outbox } }) => {
          for (const e of events) await outbox.append(e, aggregateId);
          await outbox.append(event(workspaceId, 'booking.created'), newId('booking'));
          return ok(null);
        }),
      );
      const rolledBack = event(workspaceId, 'booking.cancelled');
      const failed = await uow().transaction(async ({ stores: { outbox } }) => {
        await outbox.append(rolledBack, aggregateId);
        return fail(conflict('No.'));
      });
      expect(failed.ok).toBe(false);
      const rows = await knex()('outbox_events').where({ aggregate_id: aggregateId }).orderBy('seq');
      expect(rows.map((row) => row.payload)).toEqual(events);
      expect(rows[0]).toMatchObject({
        id: events[0]?.id,
        workspace_id: workspaceId,
        type: 'booking.created',
      });
      expect(rows.map((row) => row.published_at)).toEqual([null, null]);
      expect(new Date(rows[0].created_at).toISOString()).toBe('2030-08-01T10:00:00.123Z');
      expect(Number(rows[0].seq)).toBeLessThan(Number(rows[1].seq));
    });
  });

  describe('idempotency', () => {
    const saved = (scope: string, key: string, body: unknown = { data: { id: 'bkg_1' } }) => ({
      scope,
      key,
      fingerprint: 'sha256:abc',
      responseStatus: 201,
      responseBody: body,
    });

    const notBefore = () => new Date(Date.now() - 60_000);
    /** Claims the key in a transaction of its own, and keeps what it found. */
    const claimOnce = (scope: string, key: string, since = notBefore()) =>
      uow().transaction(async ({ stores: { idempotency } }) =>
        ok(await idempotency.claim(scope, key, since)),
      );

    it('claim needs a transaction; the key is free again once the transaction ends', async () => {
      const scope = `ws_${newId('workspace')} POST /bookings`;
      await expect(stores().idempotency.claim(scope, 'k', notBefore())).rejects.toThrow(/transaction/);
      expect(await claimOnce(scope, 'k')).toEqual(ok({ taken: true, existing: null }));
      expect(await claimOnce(scope, 'k')).toEqual(ok({ taken: true, existing: null }));
    });

    it('claim: a second concurrent transaction is refused the key until the first commits', async ({
      skip,
    }) => {
      if (!database().concurrentSessions) skip('one connection: transactions cannot overlap');
      const scope = `ws_${newId('workspace')} POST /bookings`;
      const held = signal();
      const release = signal();
      const first = uow().transaction(async ({ stores: { idempotency } }) => {
        const got = await idempotency.claim(scope, 'key-1', notBefore());
        held.fire();
        await release.promise;
        return ok(got.taken);
      });
      await held.promise;
      expect(await claimOnce(scope, 'key-1')).toEqual(ok({ taken: false }));
      expect(await claimOnce(scope, 'key-2')).toEqual(ok({ taken: true, existing: null }));
      // The pair is encoded unambiguously: another split of the same characters is another lock.
      expect(await claimOnce(`${scope}key`, '-1')).toEqual(ok({ taken: true, existing: null }));
      release.fire();
      expect(await first).toEqual(ok(true));
      expect(await claimOnce(scope, 'key-1')).toEqual(ok({ taken: true, existing: null }));
    });

    const existingOf = async (scope: string, key: string, since = notBefore()) => {
      const claimed = unwrap(await claimOnce(scope, key, since));
      if (!claimed.taken) throw new Error('The key is held.');
      return claimed.existing;
    };

    it('claim reads the record saved since notBefore; save replaces an expired one only', async () => {
      const scope = `ws_${newId('workspace')} POST /bookings`;
      const { idempotency } = stores();
      expect(await idempotency.save(saved(scope, 'a'), notBefore())).toBe(true);
      expect(await existingOf(scope, 'a')).toEqual({ ...saved(scope, 'a'), createdAt: expect.any(Date) });
      expect(await existingOf(scope, 'a', new Date(Date.now() + 60_000))).toBeNull();
      expect(await existingOf(scope, 'other')).toBeNull();

      // A live record (a twin committed after a claim read nothing): kept, and save says so.
      expect(await idempotency.save({ ...saved(scope, 'a'), fingerprint: 'sha256:twin' }, notBefore())).toBe(
        false,
      );
      expect(await existingOf(scope, 'a')).toMatchObject({ fingerprint: 'sha256:abc' });

      await knex()('idempotency_keys')
        .where({ scope, key: 'a' })
        .update({ created_at: new Date('2000-01-01') });
      expect(await existingOf(scope, 'a')).toBeNull();
      expect(
        await idempotency.save(
          { ...saved(scope, 'a', null), fingerprint: 'sha256:new', responseStatus: 204 },
          notBefore(),
        ),
      ).toBe(true);
      expect(await existingOf(scope, 'a')).toMatchObject({
        fingerprint: 'sha256:new',
        responseStatus: 204,
        responseBody: null,
      });
    });

    it('runIdempotently: a twin that commits after the claim read nothing: rolled back, then replayed', async ({
      skip,
    }) => {
      if (!database().concurrentSessions) skip('one connection: the twin cannot commit meanwhile');
      const scope = `ws_${newId('workspace')} POST /bookings`;
      const workspaceId = await newWorkspace(knex());
      let runs = 0;
      const result = await runIdempotently(
        { uow: uow(), clock: { now: () => new Date() } },
        { scope, key: 'twin', fingerprint: 'sha256:abc' },
        async (tx) => {
          runs++;
          unwrap(
            await tx.stores.customers.insert(workspaceId, {
              id: newId('customer'),
              name: `Run${runs}`,
              email: `run${runs}@x.example`,
              phone: null,
              tags: [],
              marketingConsent: false,
            }),
          );
          // The twin's answer, committed on another connection while this run is under way.
          await createStores(knex()).idempotency.save(
            saved(scope, 'twin', { body: 'the twin' }),
            new Date(0),
          );
          return ok({ status: 201, body: 'this run' });
        },
      );
      expect(result).toEqual(ok({ status: 201, body: 'the twin', replayed: true }));
      expect(runs).toBe(1);
      expect(await knex()('customers').where({ workspace_id: workspaceId }).pluck('name')).toEqual([]);
    });

    it('bodies of every JSON kind come back as saved; deleteOlderThan counts what it removed', async () => {
      const scope = `ws_${newId('workspace')} POST /bookings`;
      const { idempotency } = stores();
      await idempotency.save(saved(scope, 'old-1', ['a', 1]), notBefore());
      await idempotency.save(saved(scope, 'old-2', 'text'), notBefore());
      expect((await existingOf(scope, 'old-1'))?.responseBody).toEqual(['a', 1]);
      expect((await existingOf(scope, 'old-2'))?.responseBody).toBe('text');
      await idempotency.save(saved(scope, 'kept'), notBefore());
      await knex()('idempotency_keys')
        .where({ scope })
        .whereIn('key', ['old-1', 'old-2'])
        .update({ created_at: new Date('2000-01-01') });
      expect(await idempotency.deleteOlderThan(new Date('2000-06-01'))).toBe(2);
      expect(await idempotency.deleteOlderThan(new Date('2000-06-01'))).toBe(0);
      expect(await existingOf(scope, 'kept')).not.toBeNull();
    });
  });
}
