import type { NewDeparture } from '@travelops/domain/catalog';
import { newId, ok } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { createStores, createUnitOfWork } from '../unit-of-work.js';
import {
  allPages,
  bookingFields,
  type ContractDatabase,
  ISO_MS,
  newBooking,
  newCustomer,
  newDeparture,
  newTour,
  newWorkspace,
  unwrap,
} from './contract-fixtures.js';

const FUTURE = '2031-05-01T00:00:00.000Z';
/** 2031-05-`day` at `hour`:00Z. */
const at = (day: number, hour = 9) => new Date(Date.UTC(2031, 4, day, hour)).toISOString();

/** Schedules and the departures they generate; runs inside `describeStoreContract`. */
export function describeScheduleStoreContract(database: () => ContractDatabase): void {
  const knex = (): Knex => database().knex;
  const stores = () => createStores(knex());

  async function scene() {
    const workspaceId = await newWorkspace(knex());
    const tourId = await newTour(knex(), workspaceId);
    const schedule = await stores().schedules.insert(workspaceId, {
      id: newId('schedule'),
      tourId,
      daysOfWeek: ['MON', 'SAT'],
      times: ['09:00', '14:30'],
      startsOn: '2031-05-01',
      endsOn: '2031-05-31',
      capacity: null,
    });
    return { workspaceId, tourId, schedule };
  }

  const generated = (tourId: string, scheduleId: string | null, startsAt: string): NewDeparture => ({
    id: newId('availability'),
    tourId,
    startsAt: new Date(startsAt),
    capacity: 8,
    status: 'SCHEDULED',
    bookingCutoffAt: null,
    scheduleId,
  });

  describe('schedules', () => {
    it('round-trip: days and times as arrays, dates as YYYY-MM-DD, ACTIVE until cancelled', async () => {
      const { workspaceId, tourId, schedule } = await scene();
      expect(schedule).toEqual({
        id: schedule.id,
        tourId,
        daysOfWeek: ['MON', 'SAT'],
        times: ['09:00', '14:30'],
        startsOn: '2031-05-01',
        endsOn: '2031-05-31',
        capacity: null,
        status: 'ACTIVE',
        cancelledAt: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(await stores().schedules.findById(workspaceId, tourId, schedule.id)).toEqual(schedule);
      const updated = await stores().schedules.update(workspaceId, schedule.id, {
        endsOn: '2031-06-30',
        capacity: 4,
        status: 'CANCELLED',
        cancelledAt: '2031-01-01T00:00:00.000Z',
      });
      expect(updated).toMatchObject({
        endsOn: '2031-06-30',
        capacity: 4,
        status: 'CANCELLED',
        cancelledAt: '2031-01-01T00:00:00.000Z',
      });
    });

    it("another tour's or workspace's schedule is not found, nor locked", async () => {
      const { workspaceId, tourId, schedule } = await scene();
      const otherTour = await newTour(knex(), workspaceId, 'other');
      const otherWorkspace = await newWorkspace(knex());
      expect(await stores().schedules.findById(workspaceId, otherTour, schedule.id)).toBeNull();
      expect(await stores().schedules.findById(otherWorkspace, tourId, schedule.id)).toBeNull();
      const locked = await createUnitOfWork(knex()).transaction(async ({ stores: s }) =>
        ok(await s.schedules.lock(workspaceId, otherTour, schedule.id)),
      );
      expect(locked).toEqual(ok(null));
    });

    it("list: the tour's schedules newest first, page by page", async () => {
      const { workspaceId, tourId, schedule } = await scene();
      const more = [];
      for (let i = 0; i < 2; i++) {
        more.push(
          await stores().schedules.insert(workspaceId, {
            id: newId('schedule'),
            tourId,
            daysOfWeek: ['SUN'],
            times: ['10:00'],
            startsOn: '2031-05-01',
            endsOn: '2031-05-02',
            capacity: 3,
          }),
        );
      }
      const pages = await allPages((after) =>
        stores().schedules.list(workspaceId, tourId, { limit: 2, after }),
      );
      const expected = [schedule, ...more].sort(
        (a, b) => b.createdAt.localeCompare(a.createdAt) || (a.id < b.id ? 1 : -1),
      );
      expect(pages.flat().map((s) => s.id)).toEqual(expected.map((s) => s.id));
      expect(
        (
          await stores().schedules.list(workspaceId, await newTour(knex(), workspaceId, 'x'), {
            limit: 5,
            after: null,
          })
        ).items,
      ).toEqual([]);
    });
  });

  describe('departures of a schedule', () => {
    it('insertDepartures makes each start once: a second run, or a twin schedule, makes none', async () => {
      const { workspaceId, tourId, schedule } = await scene();
      const starts = [at(3), at(3, 14), at(5)];
      const { schedules } = stores();
      expect(
        await schedules.insertDepartures(
          workspaceId,
          tourId,
          starts.map((s) => generated(tourId, schedule.id, s)),
        ),
      ).toBe(3);
      expect(
        await schedules.insertDepartures(
          workspaceId,
          tourId,
          starts.map((s) => generated(tourId, schedule.id, s)),
        ),
      ).toBe(0);
      const twin = await schedules.insert(workspaceId, { ...schedule, id: newId('schedule') });
      expect(
        await schedules.insertDepartures(
          workspaceId,
          tourId,
          starts.map((s) => generated(tourId, twin.id, s)),
        ),
      ).toBe(0);
      const rows = await knex()('availability').where({ tour_id: tourId }).orderBy('starts_at');
      expect(
        rows.map((r) => [new Date(r.starts_at).toISOString(), r.schedule_id, r.capacity, r.status]),
      ).toEqual(starts.map((s) => [s, schedule.id, 8, 'SCHEDULED']));
    });

    it('a start the tour departs at by hand is skipped; a CANCELLED one is not', async () => {
      const { workspaceId, tourId, schedule } = await scene();
      await newDeparture(knex(), workspaceId, tourId, at(3));
      await newDeparture(knex(), workspaceId, tourId, at(5), { status: 'CANCELLED' });
      const made = await stores().schedules.insertDepartures(
        workspaceId,
        tourId,
        [at(3), at(5)].map((s) => generated(tourId, schedule.id, s)),
      );
      expect(made).toBe(1);
      expect(await knex()('availability').where({ schedule_id: schedule.id }).pluck('starts_at')).toEqual([
        new Date(at(5)),
      ]);
    });

    it("the schedule's own CANCELLED departure keeps its start: it is not generated again", async () => {
      const { workspaceId, tourId, schedule } = await scene();
      const { schedules } = stores();
      await schedules.insertDepartures(workspaceId, tourId, [generated(tourId, schedule.id, at(3))]);
      await knex()('availability').where({ schedule_id: schedule.id }).update({ status: 'CANCELLED' });
      expect(
        await schedules.insertDepartures(workspaceId, tourId, [generated(tourId, schedule.id, at(3))]),
      ).toBe(0);
    });

    it('lockFutureDepartures: after the instant, not CANCELLED, booked by seats or by any booking row', async () => {
      const { workspaceId, tourId, schedule } = await scene();
      const { schedules } = stores();
      const departures = [at(1), at(2), at(3), at(4), at(5), at(6)].map((s) =>
        generated(tourId, schedule.id, s),
      );
      await schedules.insertDepartures(workspaceId, tourId, departures);
      const [past, free, seated, cancelledBooking, cancelled, other] = departures.map(
        (d) => d.id,
      ) as string[];
      await knex()('availability').where({ id: seated }).update({ booked_seats: 2 });
      const customerId = await newCustomer(knex(), workspaceId);
      const sceneOf = (availabilityId: string) => ({
        workspaceId,
        tourId,
        availabilityId,
        startsAt: at(4),
        customerId,
      });
      await newBooking(knex(), sceneOf(cancelledBooking as string), { status: 'CANCELLED' });
      await knex()('availability').where({ id: cancelled }).update({ status: 'CANCELLED' });
      await knex()('availability').where({ id: other }).update({ status: 'DELAYED' });

      const locked = await createUnitOfWork(knex()).transaction(async ({ stores: s }) =>
        ok(await s.schedules.lockFutureDepartures(workspaceId, schedule.id, new Date(at(1)))),
      );
      if (!locked.ok) throw new Error('lock failed');
      expect(locked.value.map(({ departure, booked }) => [departure.id, booked, departure.status])).toEqual(
        [
          [free, false, 'SCHEDULED'],
          [seated, true, 'SCHEDULED'],
          [cancelledBooking, true, 'SCHEDULED'],
          [other, false, 'DELAYED'],
        ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
      );
      expect(locked.value.map(({ departure }) => departure.id)).not.toContain(past);
      expect(locked.value[0]?.departure).toEqual({
        id: expect.any(String),
        startsAt: expect.stringMatching(ISO_MS),
        capacity: 8,
        status: expect.any(String),
      });
    });

    it('resize, remove and cancel change only the departures named; one an incident names is cancelled, not deleted', async () => {
      const { workspaceId, tourId, schedule } = await scene();
      const { schedules } = stores();
      const departures = [at(1), at(2), at(3), at(4), at(5)].map((s) => generated(tourId, schedule.id, s));
      await schedules.insertDepartures(workspaceId, tourId, departures);
      const [resized, removed, reported, cancelled, untouched] = departures.map((d) => d.id) as string[];
      await knex()('incidents').insert({
        id: newId('incident'),
        workspace_id: workspaceId,
        availability_id: reported,
        severity: 'LOW',
        status: 'OPEN',
        title: 'Flat tyre',
        occurred_at: new Date(),
        reported_by: 'test',
      });
      await schedules.resizeDepartures(workspaceId, [resized as string], 3);
      await schedules.removeDepartures(workspaceId, [removed as string, reported as string]);
      await schedules.cancelDepartures(workspaceId, [cancelled as string]);
      await schedules.resizeDepartures(workspaceId, [], 3);
      const rows = new Map(
        (await knex()('availability').where({ schedule_id: schedule.id })).map((r) => [r.id, r]),
      );
      expect(rows.get(resized)).toMatchObject({ capacity: 3, status: 'SCHEDULED' });
      expect(rows.has(removed as string)).toBe(false);
      expect(rows.get(reported)).toMatchObject({ capacity: 8, status: 'CANCELLED' });
      expect(rows.get(cancelled)).toMatchObject({ capacity: 8, status: 'CANCELLED' });
      expect(rows.get(untouched)).toMatchObject({ capacity: 8, status: 'SCHEDULED' });
    });

    it('a booking row that commits while lockFutureDepartures waits for its departure is seen', async ({
      skip,
    }) => {
      if (!database().concurrentSessions) skip('one connection: transactions cannot overlap');
      const { workspaceId, tourId, schedule } = await scene();
      const departure = generated(tourId, schedule.id, at(9));
      await stores().schedules.insertDepartures(workspaceId, tourId, [departure]);
      const customerId = await newCustomer(knex(), workspaceId);
      let releaseBooking: () => void = () => {};
      const bookingHeld = new Promise<void>((resolve) => {
        releaseBooking = resolve;
      });
      let lockTaken: () => void = () => {};
      const departureLocked = new Promise<void>((resolve) => {
        lockTaken = resolve;
      });
      // The booking's transaction locks the departure and adds a booking row, and holds until
      // told to commit. No seats move, so only a read made after the lock can see the row.
      const booking = createUnitOfWork(knex()).transaction(async ({ stores: s }) => {
        await s.departures.lock(workspaceId, departure.id);
        unwrap(
          await s.bookings.insert(
            bookingFields({ workspaceId, tourId, availabilityId: departure.id, startsAt: at(9), customerId }),
          ),
        );
        lockTaken();
        await bookingHeld;
        return ok(true);
      });
      await departureLocked;
      const locking = createUnitOfWork(knex()).transaction(async ({ stores: s }) =>
        ok(await s.schedules.lockFutureDepartures(workspaceId, schedule.id, new Date(FUTURE))),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      releaseBooking();
      expect(await booking).toEqual(ok(true));
      const locked = await locking;
      expect(locked).toEqual(
        ok([{ departure: expect.objectContaining({ id: departure.id }), booked: true }]),
      );
    });
  });
}
