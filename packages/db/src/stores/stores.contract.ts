import { newId, ok, unprocessable } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../database.js';
import { getOrCreateSecret } from '../secrets.js';
import { createStores } from '../unit-of-work.js';
import { describeBookingChangesContract } from './booking-changes.contract.js';
import { describeBookingStoreContract } from './bookings.contract.js';
import * as fixtures from './contract-fixtures.js';
import {
  allPages,
  type ContractDatabase,
  compare,
  errorOf,
  ISO_MS,
  tourFields,
  unwrap,
} from './contract-fixtures.js';
import { describeCrmStoreContract } from './crm.contract.js';
import { describeGuestEmailStoreContract } from './guest-emails.contract.js';
import { describeOperationsStoreContract } from './operations.contract.js';
import { describePersonalDataStoreContract } from './personal-data.contract.js';
import { describeOctoStoreContract } from './reseller-bookings.contract.js';
import { describeResourceStoreContract } from './resources.contract.js';
import { describeScheduleStoreContract } from './schedules.contract.js';
import { describeWebhookStoreContract } from './webhooks.contract.js';

/** The repository rules every database kind must keep; each test file supplies its database. */
export function describeStoreContract(kind: string, open: () => Promise<ContractDatabase>): void {
  describe(`stores on ${kind}`, () => {
    let database: ContractDatabase;
    let knex: Knex;

    beforeAll(async () => {
      database = await open();
      knex = database.knex;
    });
    afterAll(async () => {
      await database.close();
    });

    const newWorkspace = () => fixtures.newWorkspace(knex);
    const newTour = (workspaceId: string, slug?: string) => fixtures.newTour(knex, workspaceId, slug);
    const newDeparture = (
      workspaceId: string,
      tourId: string,
      startsAt: string,
      extra?: Parameters<typeof fixtures.newDeparture>[4],
    ) => fixtures.newDeparture(knex, workspaceId, tourId, startsAt, extra);

    describe('workspaces', () => {
      it('finds a workspace by id and slug; a taken slug is a CONFLICT on slug', async () => {
        const stores = createStores(knex);
        const created = unwrap(
          await stores.workspaces.insert({ id: newId('workspace'), slug: 'acme-tours', name: 'Acme' }),
        );
        expect(created.createdAt).toMatch(ISO_MS);
        expect(await stores.workspaces.findById(created.id)).toEqual(created);
        expect(await stores.workspaces.findBySlug('acme-tours')).toEqual(created);
        expect(await stores.workspaces.findBySlug('nope')).toBeNull();
        const twin = await stores.workspaces.insert({
          id: newId('workspace'),
          slug: 'acme-tours',
          name: 'Twin',
        });
        expect(errorOf(twin)).toMatchObject({
          code: 'CONFLICT',
          details: [{ field: 'slug', issue: 'already_exists' }],
        });
      });
    });

    describe('tours', () => {
      it('round-trips a tour, with bigint amounts as numbers and ISO timestamps', async () => {
        const workspaceId = await newWorkspace();
        const input = tourFields('big', {
          basePrice: 1_000_000_000_000,
          meetingPoint: 'Pier 3',
          isPublic: true,
          addOns: [
            { id: 'lunch', name: 'Lunch', price: 1500 },
            { id: 'photos', name: 'Photos', price: 0 },
          ],
        });
        const tour = unwrap(await createStores(knex).tours.insert(workspaceId, input));
        expect(tour).toMatchObject({ ...input });
        expect(tour.basePrice).toBe(1_000_000_000_000);
        expect(tour.createdAt).toMatch(ISO_MS);
        expect(tour.updatedAt).toMatch(ISO_MS);
        expect(await createStores(knex).tours.findById(workspaceId, tour.id)).toEqual(tour);
        expect(await createStores(knex).tours.findBySlug(workspaceId, 'big')).toEqual(tour);
      });

      it('findPublicBySlugs finds a public tour by its workspace slug and its own, in one read', async () => {
        const stores = createStores(knex);
        const workspaceId = await newWorkspace();
        const other = await newWorkspace();
        const slugOf = async (id: string) => (await stores.workspaces.findById(id))?.slug as string;
        const published = unwrap(
          await stores.tours.insert(workspaceId, tourFields('harbor', { isPublic: true })),
        );
        await newTour(workspaceId, 'hidden');
        unwrap(await stores.tours.insert(other, tourFields('elsewhere', { isPublic: true })));
        const slug = await slugOf(workspaceId);
        let queries = 0;
        const count = () => {
          queries++;
        };
        knex.on('query', count);
        try {
          expect(await stores.tours.findPublicBySlugs(slug, 'harbor')).toEqual({
            workspaceId,
            tour: published,
          });
        } finally {
          knex.removeListener('query', count);
        }
        expect(queries).toBe(1);
        // Unpublished, another workspace's, unknown: all alike.
        expect(await stores.tours.findPublicBySlugs(slug, 'hidden')).toBeNull();
        expect(await stores.tours.findPublicBySlugs(slug, 'elsewhere')).toBeNull();
        expect(await stores.tours.findPublicBySlugs(await slugOf(other), 'harbor')).toBeNull();
        expect(await stores.tours.findPublicBySlugs('no-such-workspace', 'harbor')).toBeNull();
      });

      it('findPublicCalendarTour: the tour and a version that moves with every write to the rows a calendar reads', async () => {
        const stores = createStores(knex);
        const workspaceId = await newWorkspace();
        const tourId = await newTour(workspaceId, 'versioned');
        await knex('tours').where({ id: tourId }).update({ is_public: true });
        const slug = (await stores.workspaces.findById(workspaceId))?.slug as string;
        const now = new Date('2030-06-01T12:00:00.000Z');
        const window = {
          departures: { from: '2030-06-01', to: '2030-06-30' },
          blackouts: { from: '2030-06-01', to: '2030-06-30' },
          now,
        };
        const read = async () => {
          const found = await stores.tours.findPublicCalendarTour(slug, 'versioned', window);
          if (!found) throw new Error('not found');
          expect(found.tour).toEqual(await stores.tours.findById(workspaceId, tourId));
          expect(found.workspaceId).toBe(workspaceId);
          return found.version;
        };
        const seen = new Set<string>();
        const changed = async () => {
          const version = await read();
          expect(seen.has(version)).toBe(false);
          seen.add(version);
          expect(await read()).toBe(version);
        };
        await changed();
        const first = await newDeparture(workspaceId, tourId, '2030-06-10T09:00:00.000Z');
        await changed();
        unwrap(await stores.departures.adjustBookedSeats(workspaceId, first, 2));
        await changed();
        await knex('availability').where({ id: first }).update({ capacity: 12 });
        await changed();
        // One deleted, another inserted: the same count.
        await knex('availability').where({ id: first }).del();
        await newDeparture(workspaceId, tourId, '2030-06-10T09:00:00.000Z');
        await changed();
        const withoutBlackout = await read();
        const blackout = unwrap(
          await stores.blackoutDates.insert(workspaceId, {
            id: newId('blackoutDate'),
            tourId: null,
            date: '2030-06-10',
            reason: null,
          }),
        );
        await changed();
        await stores.blackoutDates.delete(workspaceId, blackout.id);
        // The same rows as before it: the same version, rightly (the same calendar).
        expect(await read()).toBe(withoutBlackout);
        unwrap(await stores.tours.update(workspaceId, tourId, { timeZone: 'Asia/Tokyo' }));
        await changed();
        // Outside the window, another tour's, past departures: not read, not counted.
        const before = await read();
        await newDeparture(workspaceId, tourId, '2030-08-10T09:00:00.000Z');
        await newDeparture(workspaceId, await newTour(workspaceId, 'other'), '2030-06-10T09:00:00.000Z');
        await newDeparture(workspaceId, tourId, '2030-06-01T11:00:00.000Z');
        expect(await read()).toBe(before);
        // Unpublished, unknown: null.
        expect(await stores.tours.findPublicCalendarTour(slug, 'other', window)).toBeNull();
        expect(
          await stores.tours.findPublicCalendarTour('no-such-workspace', 'versioned', window),
        ).toBeNull();
      });

      it("another workspace's tour is not found, not updated, not listed", async () => {
        const owner = await newWorkspace();
        const other = await newWorkspace();
        const tours = createStores(knex).tours;
        const tourId = await newTour(owner, 'private');
        expect(await tours.findById(other, tourId)).toBeNull();
        expect(await tours.findBySlug(other, 'private')).toBeNull();
        expect(errorOf(await tours.update(other, tourId, { name: 'Stolen' })).code).toBe('NOT_FOUND');
        expect((await tours.list(other, { limit: 10, after: null })).items).toEqual([]);
        expect((await tours.findById(owner, tourId))?.name).toBe('Tour private');
      });

      it('a slug taken in the workspace is a CONFLICT on insert and update; other workspaces may reuse it', async () => {
        const workspaceId = await newWorkspace();
        const tours = createStores(knex).tours;
        await newTour(workspaceId, 'sunset');
        const otherId = await newTour(workspaceId, 'sunrise');
        const expected = { code: 'CONFLICT', details: [{ field: 'slug', issue: 'already_exists' }] };
        expect(errorOf(await tours.insert(workspaceId, tourFields('sunset')))).toMatchObject(expected);
        expect(errorOf(await tours.update(workspaceId, otherId, { slug: 'sunset' }))).toMatchObject(expected);
        unwrap(await tours.insert(await newWorkspace(), tourFields('sunset')));
      });

      it('update writes only the keys present and answers NOT_FOUND for a missing tour', async () => {
        const workspaceId = await newWorkspace();
        const tours = createStores(knex).tours;
        const before = unwrap(await tours.insert(workspaceId, tourFields('edit', { meetingPoint: 'Gate' })));
        const after = unwrap(
          await tours.update(workspaceId, before.id, { name: 'Renamed', meetingPoint: null }),
        );
        expect(after).toMatchObject({
          ...before,
          name: 'Renamed',
          meetingPoint: null,
          updatedAt: expect.any(String),
        });
        expect(unwrap(await tours.update(workspaceId, before.id, {}))).toEqual(after);
        const addOns = [{ id: 'kayak', name: 'Kayak', price: 2000 }];
        expect(unwrap(await tours.update(workspaceId, before.id, { addOns }))).toMatchObject({
          ...after,
          addOns,
          updatedAt: expect.any(String),
        });
        expect(unwrap(await tours.update(workspaceId, before.id, { addOns: [] })).addOns).toEqual([]);
        expect(errorOf(await tours.update(workspaceId, newId('tour'), { name: 'x' }))).toMatchObject({
          code: 'NOT_FOUND',
        });
        expect(errorOf(await tours.update(workspaceId, newId('tour'), {})).code).toBe('NOT_FOUND');
      });

      it('pages through tours sharing one created_at: newest first, no duplicates, no gaps', async () => {
        const workspaceId = await newWorkspace();
        // One transaction: now() is the same for every row, so only the id breaks ties.
        const ids = await withTransaction(knex, async (trx) => {
          const created: string[] = [];
          for (let i = 0; i < 7; i++) {
            created.push(unwrap(await createStores(trx).tours.insert(workspaceId, tourFields(`t${i}`))).id);
          }
          return created;
        });
        const pages = await allPages((after) =>
          createStores(knex).tours.list(workspaceId, { limit: 3, after }),
        );
        expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
        const listed = pages.flat();
        expect(new Set(listed.map((tour) => tour.createdAt)).size).toBe(1);
        expect(listed.map((tour) => tour.id)).toEqual([...ids].sort().reverse());
      });

      it('findByIds answers the workspace tours among the ids, and skips unknown and foreign ones', async () => {
        const workspaceId = await newWorkspace();
        const tours = createStores(knex).tours;
        const one = await newTour(workspaceId, 'one');
        const two = await newTour(workspaceId, 'two');
        const foreign = await newTour(await newWorkspace(), 'one');
        const found = await tours.findByIds(workspaceId, [one, two, foreign, 'tour_unknown']);
        expect(found.map((tour) => tour.id).sort()).toEqual([one, two].sort());
        expect(found.find((tour) => tour.id === one)).toEqual(await tours.findById(workspaceId, one));
        expect(await tours.findByIds(workspaceId, [])).toEqual([]);
      });

      it('listPublic returns only published tours of the workspace', async () => {
        const workspaceId = await newWorkspace();
        const tours = createStores(knex).tours;
        unwrap(await tours.insert(workspaceId, tourFields('shown', { isPublic: true })));
        unwrap(await tours.insert(workspaceId, tourFields('hidden')));
        unwrap(await tours.insert(await newWorkspace(), tourFields('elsewhere', { isPublic: true })));
        expect((await tours.listPublic(workspaceId)).map((tour) => tour.slug)).toEqual(['shown']);
      });
    });

    describe('availability', () => {
      it('maps a departure: seatsRemaining from capacity and booked seats, ISO timestamps', async () => {
        const workspaceId = await newWorkspace();
        const tourId = await newTour(workspaceId);
        const id = await newDeparture(workspaceId, tourId, '2030-05-01T09:30:00.000Z', {
          bookingCutoffAt: '2030-05-01T08:00:00.000Z',
        });
        await knex('availability').where({ id }).update({ booked_seats: 4 });
        const departure = await createStores(knex).departures.findById(workspaceId, id);
        expect(departure).toMatchObject({
          id,
          tourId,
          startsAt: '2030-05-01T09:30:00.000Z',
          capacity: 10,
          bookedSeats: 4,
          seatsRemaining: 6,
          status: 'SCHEDULED',
          guideId: null,
          driverId: null,
          vehicleId: null,
          bookingCutoffAt: '2030-05-01T08:00:00.000Z',
        });
        expect(departure?.createdAt).toMatch(ISO_MS);
        expect(await createStores(knex).departures.findById(await newWorkspace(), id)).toBeNull();
      });

      it('from and to are inclusive UTC calendar dates on startsAt; tourId filters exactly', async () => {
        const workspaceId = await newWorkspace();
        const tourId = await newTour(workspaceId, 'a');
        const otherTour = await newTour(workspaceId, 'b');
        await newDeparture(workspaceId, tourId, '2030-02-28T23:59:59.999Z');
        const first = await newDeparture(workspaceId, tourId, '2030-03-01T00:00:00.000Z');
        const second = await newDeparture(workspaceId, tourId, '2030-03-01T23:59:59.999Z');
        const third = await newDeparture(workspaceId, tourId, '2030-03-02T23:59:59.999Z');
        await newDeparture(workspaceId, tourId, '2030-03-03T00:00:00.000Z');
        const elsewhere = await newDeparture(workspaceId, otherTour, '2030-03-02T10:00:00.000Z');
        const availability = createStores(knex).departures;
        const page = { limit: 50, after: null };
        const window = await availability.list(
          workspaceId,
          { from: '2030-03-01', to: '2030-03-02', tourId },
          page,
        );
        expect(window.items.map((d) => d.id)).toEqual([first, second, third]);
        const both = await availability.list(workspaceId, { from: '2030-03-02', to: '2030-03-02' }, page);
        expect(both.items.map((d) => d.id).sort()).toEqual([third, elsewhere].sort());
        const fromOnly = await availability.list(workspaceId, { from: '2030-03-03' }, page);
        expect(fromOnly.items).toHaveLength(1);
        const toOnly = await availability.list(workspaceId, { to: '2030-02-28' }, page);
        expect(toOnly.items).toHaveLength(1);
      });

      it('pages departures by startsAt then id, including ties, without duplicates or gaps', async () => {
        const workspaceId = await newWorkspace();
        const tourId = await newTour(workspaceId);
        const ids: string[] = [];
        for (const startsAt of ['2030-01-02', '2030-01-01', '2030-01-02', '2030-01-01', '2030-01-02']) {
          ids.push(await newDeparture(workspaceId, tourId, `${startsAt}T10:00:00.000Z`));
        }
        const pages = await allPages((after) =>
          createStores(knex).departures.list(workspaceId, {}, { limit: 2, after }),
        );
        expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
        const listed = pages.flat();
        const expected = listed
          .map((d) => [d.startsAt, d.id] as const)
          .sort(([a, ai], [b, bi]) => (a === b ? compare(ai, bi) : compare(a, b)));
        expect(listed.map((d) => d.id)).toEqual(expected.map(([, id]) => id));
        expect(new Set(listed.map((d) => d.id))).toEqual(new Set(ids));
      });

      it('listBookable keeps open, future, not-cut-off departures of the tour, by start time', async () => {
        const workspaceId = await newWorkspace();
        const tourId = await newTour(workspaceId, 'a');
        const otherTour = await newTour(workspaceId, 'b');
        const now = new Date('2030-06-01T12:00:00.000Z');
        const later = await newDeparture(workspaceId, tourId, '2030-06-03T09:00:00.000Z');
        const delayed = await newDeparture(workspaceId, tourId, '2030-06-02T09:00:00.000Z', {
          status: 'DELAYED',
        });
        const cutoffAhead = await newDeparture(workspaceId, tourId, '2030-06-04T09:00:00.000Z', {
          bookingCutoffAt: '2030-06-01T12:00:00.001Z',
        });
        await newDeparture(workspaceId, tourId, '2030-06-05T09:00:00.000Z', {
          bookingCutoffAt: '2030-06-01T12:00:00.000Z',
        });
        await newDeparture(workspaceId, tourId, '2030-06-01T12:00:00.000Z');
        await newDeparture(workspaceId, tourId, '2030-05-31T09:00:00.000Z');
        for (const status of ['BOARDING', 'DEPARTED', 'COMPLETED', 'CANCELLED'] as const) {
          await newDeparture(workspaceId, tourId, '2030-06-06T09:00:00.000Z', { status });
        }
        await newDeparture(workspaceId, otherTour, '2030-06-03T09:00:00.000Z');
        const availability = createStores(knex).departures;
        const bookable = await availability.listBookable(workspaceId, tourId, {}, now);
        expect(bookable.map((d) => d.id)).toEqual([delayed, later, cutoffAhead]);
        const window = await availability.listBookable(
          workspaceId,
          tourId,
          { from: '2030-06-03', to: '2030-06-03' },
          now,
        );
        expect(window.map((d) => d.id)).toEqual([later]);
        const limited = await availability.listBookable(workspaceId, tourId, {}, now, 2);
        expect(limited.map((d) => d.id)).toEqual([delayed, later]);
        expect(await availability.listBookable(await newWorkspace(), tourId, {}, now)).toEqual([]);
      });

      it('listCalendarDepartures groups what listBookable finds by day start, kind and seats, with counts, earliest start and cutoff', async () => {
        const workspaceId = await newWorkspace();
        const tourId = await newTour(workspaceId, 'a');
        const otherTour = await newTour(workspaceId, 'b');
        const now = new Date('2030-06-01T12:00:00.000Z');
        const later = await newDeparture(workspaceId, tourId, '2030-06-03T09:00:00.000Z', { capacity: 8 });
        await newDeparture(workspaceId, tourId, '2030-06-02T09:00:00.000Z', { status: 'DELAYED' });
        await newDeparture(workspaceId, tourId, '2030-06-04T09:00:00.123Z', {
          bookingCutoffAt: '2030-06-01T12:00:00.001Z',
        });
        await newDeparture(workspaceId, tourId, '2030-06-05T09:00:00.000Z', {
          bookingCutoffAt: '2030-06-01T12:00:00.000Z',
        });
        await newDeparture(workspaceId, tourId, '2030-06-01T12:00:00.000Z');
        await newDeparture(workspaceId, tourId, '2030-05-31T09:00:00.000Z');
        for (const status of ['BOARDING', 'DEPARTED', 'COMPLETED', 'CANCELLED'] as const) {
          await newDeparture(workspaceId, tourId, '2030-06-06T09:00:00.000Z', { status });
        }
        await newDeparture(workspaceId, otherTour, '2030-06-03T09:00:00.000Z');
        // Three alike on 10 June (one group, the earliest start and cutoff), one with a seat sold.
        await newDeparture(workspaceId, tourId, '2030-06-10T15:00:00.000Z', {
          bookingCutoffAt: '2030-06-10T12:00:00.000Z',
        });
        await newDeparture(workspaceId, tourId, '2030-06-10T09:00:00.000Z');
        await newDeparture(workspaceId, tourId, '2030-06-10T18:00:00.000Z', {
          bookingCutoffAt: '2030-06-10T17:00:00.000Z',
        });
        const sold = await newDeparture(workspaceId, tourId, '2030-06-10T20:00:00.000Z');
        // 11 June 01:00Z, on a day that starts at 02:00Z: the 10th's.
        await newDeparture(workspaceId, tourId, '2030-06-11T01:00:00.000Z');
        const availability = createStores(knex).departures;
        unwrap(await availability.adjustBookedSeats(workspaceId, later, 3));
        unwrap(await availability.adjustBookedSeats(workspaceId, sold, 1));
        const prices = [{ ticketTypeId: 'tt_child', price: 900 }];
        await knex('availability')
          .where({ id: later })
          .update({ prices: JSON.stringify(prices) });
        // Days starting at 00:00Z from 1 May to 10 June, then 11 June starting at 02:00Z, 12 June at 00:00Z.
        const dayStarts = Array.from(
          { length: 41 },
          (_, i) => Date.parse('2030-05-01T00:00:00.000Z') + i * 86_400_000,
        );
        dayStarts.push(Date.parse('2030-06-11T02:00:00.000Z'), Date.parse('2030-06-12T00:00:00.000Z'));

        const read = await availability.listCalendarDepartures(workspaceId, tourId, dayStarts, now);
        const one = { count: 1, bookingCutoffAtMs: null, capacity: 10, seatsRemaining: 10, prices: [] };
        expect([...read].sort((a, b) => a.startsAtMs - b.startsAtMs || a.count - b.count)).toEqual([
          { ...one, status: 'DELAYED', startsAtMs: Date.parse('2030-06-02T09:00:00.000Z') },
          {
            ...one,
            status: 'SCHEDULED',
            startsAtMs: Date.parse('2030-06-03T09:00:00.000Z'),
            capacity: 8,
            seatsRemaining: 5,
            prices,
          },
          {
            ...one,
            status: 'SCHEDULED',
            startsAtMs: Date.parse('2030-06-04T09:00:00.123Z'),
            bookingCutoffAtMs: Date.parse('2030-06-01T12:00:00.001Z'),
          },
          {
            ...one,
            count: 4,
            status: 'SCHEDULED',
            startsAtMs: Date.parse('2030-06-10T09:00:00.000Z'),
            bookingCutoffAtMs: Date.parse('2030-06-10T12:00:00.000Z'),
          },
          {
            ...one,
            status: 'SCHEDULED',
            startsAtMs: Date.parse('2030-06-10T20:00:00.000Z'),
            seatsRemaining: 9,
          },
        ]);
        // The same departures as listBookable finds, counted.
        const bookable = await availability.listBookable(
          workspaceId,
          tourId,
          { from: '2030-05-01', to: '2030-06-11' },
          now,
          100,
        );
        expect(read.reduce((sum, group) => sum + group.count, 0)).toBe(bookable.length);
        // Only between the first and the last day start; another workspace's tour reads nothing.
        const june3 = Date.parse('2030-06-03T00:00:00.000Z');
        const countIn = async (starts: number[]) =>
          (await availability.listCalendarDepartures(workspaceId, tourId, starts, now)).reduce(
            (sum, group) => sum + group.count,
            0,
          );
        expect(await countIn([june3, june3 + 86_400_000])).toBe(1);
        expect(await countIn([june3 + 86_400_000 * 30, june3 + 86_400_000 * 31])).toBe(0);
        expect(
          await availability.listCalendarDepartures(await newWorkspace(), tourId, dayStarts, now),
        ).toEqual([]);
      });

      it('updateWith writes only the patch keys and answers NOT_FOUND for a missing or foreign departure', async () => {
        const workspaceId = await newWorkspace();
        const tourId = await newTour(workspaceId);
        const id = await newDeparture(workspaceId, tourId, '2030-07-01T09:00:00.000Z', {
          bookingCutoffAt: '2030-07-01T08:00:00.000Z',
        });
        const availability = createStores(knex).departures;
        const updated = unwrap(
          await availability.updateWith(workspaceId, id, () =>
            ok({ status: 'DELAYED', bookingCutoffAt: null }),
          ),
        );
        expect(updated).toMatchObject({
          status: 'DELAYED',
          bookingCutoffAt: null,
          capacity: 10,
          startsAt: '2030-07-01T09:00:00.000Z',
        });
        expect(await availability.findById(workspaceId, id)).toEqual(updated);
        const foreign = await availability.updateWith(await newWorkspace(), id, () => ok({ capacity: 1 }));
        expect(errorOf(foreign)).toMatchObject({ code: 'NOT_FOUND' });
        const missing = await availability.updateWith(workspaceId, newId('availability'), () => ok({}));
        expect(errorOf(missing).code).toBe('NOT_FOUND');
      });

      it('updateWith returns the decision failure and writes nothing', async () => {
        const workspaceId = await newWorkspace();
        const id = await newDeparture(workspaceId, await newTour(workspaceId), '2030-07-01T09:00:00.000Z');
        const availability = createStores(knex).departures;
        const before = await availability.findById(workspaceId, id);
        const refusal = unprocessable('No.', 'status', 'invalid_transition');
        const result = await availability.updateWith(workspaceId, id, (current) => {
          expect(current).toEqual(before);
          return { ok: false, error: refusal };
        });
        expect(errorOf(result)).toEqual(refusal);
        expect(await availability.findById(workspaceId, id)).toEqual(before);
      });

      it('a write breaking the seat CHECK is a CONFLICT result, and leaves an enclosing transaction usable', async () => {
        const workspaceId = await newWorkspace();
        const id = await newDeparture(workspaceId, await newTour(workspaceId), '2030-07-01T09:00:00.000Z');
        await knex('availability').where({ id }).update({ booked_seats: 6 });
        const direct = await createStores(knex).departures.updateWith(workspaceId, id, () =>
          ok({ capacity: 5 }),
        );
        expect(errorOf(direct).code).toBe('CONFLICT');
        const inside = await withTransaction(knex, async (trx) => {
          const stores = createStores(trx);
          const refused = await stores.departures.updateWith(workspaceId, id, () => ok({ capacity: 3 }));
          const applied = await stores.departures.updateWith(workspaceId, id, () => ok({ capacity: 8 }));
          return { refused, applied };
        });
        expect(errorOf(inside.refused).code).toBe('CONFLICT');
        expect(unwrap(inside.applied)).toMatchObject({ capacity: 8, bookedSeats: 6, seatsRemaining: 2 });
      });

      it('two concurrent updateWith on one departure serialise: the second decides on the first write', async () => {
        const workspaceId = await newWorkspace();
        const id = await newDeparture(workspaceId, await newTour(workspaceId), '2030-07-01T09:00:00.000Z');
        const events: string[] = [];
        let locked: () => void = () => {};
        const firstHoldsLock = new Promise<void>((resolve) => {
          locked = resolve;
        });
        const first = withTransaction(knex, async (trx) => {
          const result = await createStores(trx).departures.updateWith(workspaceId, id, (current) =>
            ok({ capacity: current.capacity + 1 }),
          );
          locked();
          // Keep the row locked a while so the second caller really has to wait.
          await new Promise((resolve) => setTimeout(resolve, 150));
          events.push('first commits');
          return result;
        });
        await firstHoldsLock;
        let seen = 0;
        const second = createStores(knex).departures.updateWith(workspaceId, id, (current) => {
          events.push('second decides');
          seen = current.capacity;
          return ok({ capacity: current.capacity + 1 });
        });
        const [a, b] = await Promise.all([first, second]);
        expect(unwrap(a).capacity).toBe(11);
        expect(seen).toBe(11);
        expect(unwrap(b).capacity).toBe(12);
        expect(events).toEqual(['first commits', 'second decides']);
      });

      it('eight parallel increments through updateWith lose no update', async () => {
        const workspaceId = await newWorkspace();
        const id = await newDeparture(workspaceId, await newTour(workspaceId), '2030-07-01T09:00:00.000Z');
        const availability = createStores(knex).departures;
        await Promise.all(
          Array.from({ length: 8 }, () =>
            availability.updateWith(workspaceId, id, (current) => ok({ capacity: current.capacity + 1 })),
          ),
        );
        expect((await availability.findById(workspaceId, id))?.capacity).toBe(18);
      });
    });

    describe('customers', () => {
      const customer = (name: string, email: string, phone: string | null = null) => ({
        id: newId('customer'),
        name,
        email,
        phone,
        tags: ['vip', 'repeat'],
        marketingConsent: true,
      });

      it('round-trips a customer; an e-mail taken in any letter case is a CONFLICT on email', async () => {
        const workspaceId = await newWorkspace();
        const customers = createStores(knex).customers;
        const input = customer('Ada', 'ada@example.com', '+44 20 1234');
        const created = unwrap(await customers.insert(workspaceId, input));
        expect(created).toMatchObject({ ...input, companyId: null, totalBookings: 0, lifetimeValue: 0 });
        expect(created.createdAt).toMatch(ISO_MS);
        expect(await customers.findById(workspaceId, created.id)).toEqual(created);
        expect(await customers.findById(await newWorkspace(), created.id)).toBeNull();
        expect(
          errorOf(await customers.insert(workspaceId, customer('Ada 2', 'ADA@example.com'))),
        ).toMatchObject({
          code: 'CONFLICT',
          details: [{ field: 'email', issue: 'already_exists' }],
        });
        unwrap(await customers.insert(await newWorkspace(), customer('Ada', 'ada@example.com')));
      });

      it('a conflict inside a transaction is a result and the transaction carries on', async () => {
        const workspaceId = await newWorkspace();
        const outcome = await withTransaction(knex, async (trx) => {
          const customers = createStores(trx).customers;
          unwrap(await customers.insert(workspaceId, customer('A', 'dup@example.com')));
          const twin = await customers.insert(workspaceId, customer('B', 'dup@example.com'));
          unwrap(await customers.insert(workspaceId, customer('C', 'other@example.com')));
          return twin;
        });
        expect(errorOf(outcome).code).toBe('CONFLICT');
        const listed = await createStores(knex).customers.list(workspaceId, {}, { limit: 10, after: null });
        expect(listed.items.map((c) => c.name).sort()).toEqual(['A', 'C']);
      });

      it('q matches name, e-mail or phone case-insensitively and takes % and _ literally', async () => {
        const workspaceId = await newWorkspace();
        const customers = createStores(knex).customers;
        const names = async (q: string) =>
          (await customers.list(workspaceId, { q }, { limit: 50, after: null })).items
            .map((c) => c.name)
            .sort();
        unwrap(
          await customers.insert(workspaceId, customer('Grace Hopper', 'grace@navy.example', '+1 555 0100')),
        );
        unwrap(await customers.insert(workspaceId, customer('Alan Turing', 'ALAN@bletchley.example')));
        unwrap(await customers.insert(workspaceId, customer('100% Travel', 'sales@percent.example')));
        unwrap(await customers.insert(workspaceId, customer('Under_Score', 'u@x.example')));
        unwrap(await customers.insert(workspaceId, customer('Back\\slash', 'b@x.example')));
        unwrap(await customers.insert(await newWorkspace(), customer('Grace Elsewhere', 'g@else.example')));
        expect(await names('GRACE')).toEqual(['Grace Hopper']);
        expect(await names('alan@BLETCH')).toEqual(['Alan Turing']);
        expect(await names('555 01')).toEqual(['Grace Hopper']);
        expect(await names('%')).toEqual(['100% Travel']);
        expect(await names('0%')).toEqual(['100% Travel']);
        expect(await names('r_s')).toEqual(['Under_Score']);
        expect(await names('k\\s')).toEqual(['Back\\slash']);
        expect(await names('nobody')).toEqual([]);
      });

      it('pages customers sharing one created_at, with a q filter, without duplicates or gaps', async () => {
        const workspaceId = await newWorkspace();
        const ids = await withTransaction(knex, async (trx) => {
          const created: string[] = [];
          for (let i = 0; i < 5; i++) {
            const match = unwrap(
              await createStores(trx).customers.insert(
                workspaceId,
                customer(`Match ${i}`, `m${i}@x.example`),
              ),
            );
            created.push(match.id);
            unwrap(
              await createStores(trx).customers.insert(
                workspaceId,
                customer(`Other ${i}`, `o${i}@x.example`),
              ),
            );
          }
          return created;
        });
        const pages = await allPages((after) =>
          createStores(knex).customers.list(workspaceId, { q: 'match' }, { limit: 2, after }),
        );
        expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
        expect(pages.flat().map((c) => c.id)).toEqual([...ids].sort().reverse());
      });
    });

    describe('members and API tokens', () => {
      it('a member e-mail taken in the workspace (any case) is a CONFLICT on email', async () => {
        const workspaceId = await newWorkspace();
        const members = createStores(knex).members;
        const member = { workspaceId, email: 'ops@example.com', role: 'ADMIN' as const, passwordHash: 'h' };
        const created = unwrap(await members.insert({ id: newId('member'), ...member }));
        expect(created.createdAt).toBeInstanceOf(Date);
        const twin = await members.insert({ id: newId('member'), ...member, email: 'OPS@example.com' });
        expect(errorOf(twin)).toMatchObject({
          code: 'CONFLICT',
          details: [{ field: 'email', issue: 'already_exists' }],
        });
        unwrap(await members.insert({ id: newId('member'), ...member, workspaceId: await newWorkspace() }));
      });

      it('finds a token by secret hash whatever its state; revoke keeps the first revocation time', async () => {
        const workspaceId = await newWorkspace();
        const tokens = createStores(knex).apiTokens;
        const expiresAt = new Date('2020-01-01T00:00:00.000Z');
        const token = await tokens.insert({
          id: newId('apiToken'),
          workspaceId,
          role: 'OPERATIONS',
          name: 'ci',
          prefix: 'tops_abc',
          secretHash: `hash-${newId('apiToken')}`,
          expiresAt,
        });
        expect(token).toMatchObject({ expiresAt, revokedAt: null, lastUsedAt: null });
        const firstRevoke = new Date('2030-01-01T00:00:00.000Z');
        expect((await tokens.revoke(token.id, firstRevoke))?.revokedAt).toEqual(firstRevoke);
        expect((await tokens.revoke(token.id, new Date('2031-01-01T00:00:00.000Z')))?.revokedAt).toEqual(
          firstRevoke,
        );
        expect(await tokens.findBySecretHash(token.secretHash)).toEqual({ ...token, revokedAt: firstRevoke });
        expect(await tokens.findBySecretHash('unknown')).toBeNull();
        expect(await tokens.revoke(newId('apiToken'), firstRevoke)).toBeNull();
      });

      const newToken = (workspaceId: string, name = 'key') =>
        createStores(knex).apiTokens.insert({
          id: newId('apiToken'),
          workspaceId,
          role: 'READ_ONLY',
          name,
          prefix: 'tops_abc',
          secretHash: `hash-${newId('apiToken')}`,
          expiresAt: null,
        });

      it("lists a workspace's live tokens newest first; revoke within another workspace finds nothing", async () => {
        const workspaceId = await newWorkspace();
        const tokens = createStores(knex).apiTokens;
        const made = [];
        for (let i = 0; i < 5; i++) made.push(await newToken(workspaceId, `key ${i}`));
        await newToken(await newWorkspace(), 'foreign');
        const revoked = made[2] as (typeof made)[number];
        expect(await tokens.revoke(revoked.id, new Date(), await newWorkspace())).toBeNull();
        expect((await tokens.revoke(revoked.id, new Date(), workspaceId))?.revokedAt).toBeInstanceOf(Date);
        const pages = await allPages((after) => tokens.listActive(workspaceId, { limit: 2, after }));
        const expected = made
          .filter((token) => token.id !== revoked.id)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || compare(b.id, a.id))
          .map((token) => token.id);
        expect(pages.flat().map((token) => token.id)).toEqual(expected);
      });

      it('touch records the last use; findById reads the token as stored, share-locked or not', async () => {
        const token = await newToken(await newWorkspace());
        const tokens = createStores(knex).apiTokens;
        const at = new Date('2030-05-05T05:05:05.005Z');
        await tokens.touch(token.id, at);
        expect(await tokens.findById(token.id)).toEqual({ ...token, lastUsedAt: at });
        const locked = await knex.transaction((trx) =>
          createStores(trx).apiTokens.findById(token.id, { shareLock: true }),
        );
        expect(locked).toEqual({ ...token, lastUsedAt: at });
        expect(await tokens.findById(newId('apiToken'))).toBeNull();
      });

      it('a token read with shareLock holds a concurrent revoke until its transaction ends', async ({
        skip,
      }) => {
        if (!database.concurrentSessions) skip('one connection: transactions cannot overlap');
        const token = await newToken(await newWorkspace());
        let revoked = false;
        let revoke: Promise<unknown> = Promise.resolve();
        await knex.transaction(async (trx) => {
          const read = await createStores(trx).apiTokens.findById(token.id, { shareLock: true });
          expect(read?.revokedAt).toBeNull();
          revoke = createStores(knex)
            .apiTokens.revoke(token.id, new Date())
            .then(() => {
              revoked = true;
            });
          await new Promise((resolve) => setTimeout(resolve, 300));
          expect(revoked).toBe(false);
        });
        await revoke;
        expect(revoked).toBe(true);
        // Once the revoke has committed, a share-locked read sees it.
        const seen = await knex.transaction((trx) =>
          createStores(trx).apiTokens.findById(token.id, { shareLock: true }),
        );
        expect(seen?.revokedAt).toBeInstanceOf(Date);
      });

      it('members by e-mail across workspaces (any case), by id, newest first, role changes and removal', async () => {
        const members = createStores(knex).members;
        const [first, second] = [await newWorkspace(), await newWorkspace()];
        const email = `pat.${newId('member')}@example.com`;
        const a = unwrap(
          await members.insert({
            id: newId('member'),
            workspaceId: first,
            email,
            role: 'ADMIN',
            passwordHash: 'h',
          }),
        );
        const b = unwrap(
          await members.insert({
            id: newId('member'),
            workspaceId: second,
            email: email.toUpperCase(),
            role: 'READ_ONLY',
            passwordHash: 'h',
          }),
        );
        const found = await members.findByEmail(email);
        expect(found.map((member) => member.id).sort()).toEqual([a.id, b.id].sort());
        expect(await members.findById(first, a.id)).toEqual(a);
        expect(await members.findById(second, a.id)).toBeNull();
        const c = unwrap(
          await members.insert({
            id: newId('member'),
            workspaceId: first,
            email: `x.${email}`,
            role: 'OPERATIONS',
            passwordHash: 'h',
          }),
        );
        const pages = await allPages((after) => members.list(first, { limit: 1, after }));
        expect(pages.flat().map((member) => member.id)).toEqual(
          [a, c]
            .sort((x, y) => y.createdAt.getTime() - x.createdAt.getTime() || compare(y.id, x.id))
            .map((member) => member.id),
        );
        expect((await members.updateRole(first, c.id, 'ADMIN'))?.role).toBe('ADMIN');
        expect(await members.updateRole(second, c.id, 'ADMIN')).toBeNull();
        expect(await members.delete(second, c.id)).toBe(false);
        expect(await members.delete(first, c.id)).toBe(true);
        expect(await members.findById(first, c.id)).toBeNull();
        const locked = await knex.transaction((trx) => createStores(trx).members.lockAll(first));
        expect(locked.map((member) => member.id)).toEqual([a.id]);
      });
    });

    describe('sessions', () => {
      const member = async (workspaceId: string, email: string, role: 'ADMIN' | 'READ_ONLY' = 'ADMIN') =>
        unwrap(
          await createStores(knex).members.insert({
            id: newId('member'),
            workspaceId,
            email,
            role,
            passwordHash: 'h',
          }),
        );
      const newSession = (memberIds: string[]) => {
        const createdAt = new Date('2030-01-01T00:00:00.000Z');
        return createStores(knex).sessions.insert(
          {
            id: newId('session'),
            secretHash: `hash-${newId('session')}`,
            email: 'pat@example.com',
            createdAt,
            expiresAt: new Date('2030-01-02T00:00:00.000Z'),
            twoFactorAt: null,
          },
          memberIds,
        );
      };

      it('keeps the memberships with their current role and workspace; finds by secret hash', async () => {
        const [first, second] = [await newWorkspace(), await newWorkspace()];
        const email = `pat.${newId('member')}@example.com`;
        const a = await member(first, email);
        const b = await member(second, email, 'READ_ONLY');
        const hash = `hash-${newId('session')}`;
        const created = await createStores(knex).sessions.insert(
          {
            id: newId('session'),
            secretHash: hash,
            email,
            createdAt: new Date('2030-01-01T00:00:00.000Z'),
            expiresAt: new Date('2030-01-02T00:00:00.000Z'),
            twoFactorAt: null,
          },
          [a.id, b.id],
        );
        expect(created).toMatchObject({
          email,
          createdAt: new Date('2030-01-01T00:00:00.000Z'),
          lastSeenAt: new Date('2030-01-01T00:00:00.000Z'),
          expiresAt: new Date('2030-01-02T00:00:00.000Z'),
          revokedAt: null,
        });
        expect(created.memberships.map((m) => [m.memberId, m.workspaceId, m.role]).sort()).toEqual(
          [
            [a.id, first, 'ADMIN'],
            [b.id, second, 'READ_ONLY'],
          ].sort(),
        );
        expect(created.memberships[0]?.workspaceSlug).toEqual(expect.any(String));
        await createStores(knex).members.updateRole(second, b.id, 'OPERATIONS');
        const found = await createStores(knex).sessions.findBySecretHash(hash);
        expect(found?.memberships.find((m) => m.memberId === b.id)?.role).toBe('OPERATIONS');
        expect(await createStores(knex).sessions.findBySecretHash('unknown')).toBeNull();
      });

      it('touch slides the expiry; revoke keeps the first time; findById reads the state', async () => {
        const sessions = createStores(knex).sessions;
        const session = await newSession([]);
        const seen = new Date('2030-01-01T01:00:00.000Z');
        const later = new Date('2030-01-02T01:00:00.000Z');
        await sessions.touch(session.id, seen, later);
        expect(await sessions.findById(session.id)).toMatchObject({ lastSeenAt: seen, expiresAt: later });
        const revokedAt = new Date('2030-01-01T02:00:00.000Z');
        await sessions.revoke(session.id, revokedAt);
        await sessions.revoke(session.id, new Date('2030-01-01T03:00:00.000Z'));
        await sessions.touch(
          session.id,
          new Date('2030-01-01T04:00:00.000Z'),
          new Date('2030-01-03T00:00:00.000Z'),
        );
        expect(await sessions.findById(session.id)).toMatchObject({ revokedAt, expiresAt: later });
        expect(await sessions.findById(newId('session'))).toBeNull();
      });

      it("revokeForMember ends exactly the sessions that include the member, and a removed member's links go", async () => {
        const workspaceId = await newWorkspace();
        const a = await member(workspaceId, `a.${newId('member')}@example.com`);
        const b = await member(workspaceId, `b.${newId('member')}@example.com`);
        const [withA, withBoth, withB] = [
          await newSession([a.id]),
          await newSession([a.id, b.id]),
          await newSession([b.id]),
        ];
        const sessions = createStores(knex).sessions;
        expect(await sessions.revokeForMember(a.id, new Date())).toBe(2);
        expect(await sessions.revokeForMember(a.id, new Date())).toBe(0);
        expect((await sessions.findById(withA.id))?.revokedAt).toBeInstanceOf(Date);
        expect((await sessions.findById(withBoth.id))?.revokedAt).toBeInstanceOf(Date);
        expect((await sessions.findById(withB.id))?.revokedAt).toBeNull();
        await createStores(knex).members.delete(workspaceId, b.id);
        expect(await knex('session_members').where({ member_id: b.id })).toEqual([]);
      });

      it('deleteEndedBefore removes sessions expired or revoked before the cutoff, and their links', async () => {
        const workspaceId = await newWorkspace();
        const a = await member(workspaceId, `a.${newId('member')}@example.com`);
        const sessions = createStores(knex).sessions;
        const expired = await newSession([a.id]); // expires 2030-01-02
        const revoked = await newSession([a.id]);
        await sessions.touch(
          revoked.id,
          new Date('2030-01-01T00:00:00.000Z'),
          new Date('2031-01-01T00:00:00.000Z'),
        );
        await sessions.revoke(revoked.id, new Date('2030-01-01T12:00:00.000Z'));
        const live = await newSession([a.id]);
        await sessions.touch(
          live.id,
          new Date('2030-01-01T00:00:00.000Z'),
          new Date('2031-01-01T00:00:00.000Z'),
        );
        // Other tests' sessions may go too; these three decide the count's floor.
        expect(await sessions.deleteEndedBefore(new Date('2030-01-03T00:00:00.000Z'))).toBeGreaterThanOrEqual(
          2,
        );
        expect(await sessions.findById(expired.id)).toBeNull();
        expect(await sessions.findById(revoked.id)).toBeNull();
        expect(await sessions.findById(live.id)).not.toBeNull();
        expect(await knex('session_members').whereIn('session_id', [expired.id, revoked.id])).toEqual([]);
      });
    });

    describe('getOrCreateSecret', () => {
      it('two concurrent callers agree on one value, and it stays', async () => {
        const name = `cursor-${newId('workspace')}`;
        const [a, b] = await Promise.all([
          getOrCreateSecret(knex, name, () => 'first'),
          getOrCreateSecret(knex, name, () => 'second'),
        ]);
        expect(a).toBe(b);
        expect(['first', 'second']).toContain(a);
        expect(await getOrCreateSecret(knex, name, () => 'third')).toBe(a);
      });
    });

    describeBookingStoreContract(() => database);
    describeBookingChangesContract(() => database);
    describeWebhookStoreContract(() => database);
    describeGuestEmailStoreContract(() => database);
    describeCrmStoreContract(() => database);
    describeOperationsStoreContract(
      () => knex,
      () => database.concurrentSessions,
    );
    describeScheduleStoreContract(() => database);
    describeResourceStoreContract(() => knex);
    describeOctoStoreContract(() => database);
    describePersonalDataStoreContract(() => database);
  });
}
