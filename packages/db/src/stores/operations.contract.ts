import { newId } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { createStores, createUnitOfWork } from '../unit-of-work.js';
import * as fixtures from './contract-fixtures.js';
import { allPages, errorOf, unwrap } from './contract-fixtures.js';

/** Operations stores (blackouts, guides, time-off, fleet, incidents, itineraries) on every database kind. */
export function describeOperationsStoreContract(knexOf: () => Knex, concurrentSessions: () => boolean): void {
  describe('operations stores', () => {
    const stores = () => createStores(knexOf());

    async function member(workspaceId: string) {
      const id = newId('member');
      unwrap(
        await stores().members.insert({
          id,
          workspaceId,
          email: `${id}@x.example`,
          role: 'OPERATIONS',
          passwordHash: 'x',
        }),
      );
      return id;
    }

    it('blackout dates: dates round-trip as YYYY-MM-DD; scope is unique per day; applying = own + workspace-wide', async () => {
      const workspaceId = await fixtures.newWorkspace(knexOf());
      const tourId = await fixtures.newTour(knexOf(), workspaceId);
      const otherTour = await fixtures.newTour(knexOf(), workspaceId, 'other');
      const wide = unwrap(
        await stores().blackoutDates.insert(workspaceId, {
          id: newId('blackoutDate'),
          tourId: null,
          date: '2031-01-01',
          reason: null,
        }),
      );
      expect(wide.date).toBe('2031-01-01');
      unwrap(
        await stores().blackoutDates.insert(workspaceId, {
          id: newId('blackoutDate'),
          tourId,
          date: '2031-01-01',
          reason: 'x',
        }),
      );
      unwrap(
        await stores().blackoutDates.insert(workspaceId, {
          id: newId('blackoutDate'),
          tourId: otherTour,
          date: '2031-01-02',
          reason: null,
        }),
      );
      const twin = await stores().blackoutDates.insert(workspaceId, {
        id: newId('blackoutDate'),
        tourId: null,
        date: '2031-01-01',
        reason: null,
      });
      expect(errorOf(twin)).toMatchObject({
        code: 'CONFLICT',
        details: [{ field: 'date', issue: 'already_exists' }],
      });
      const applying = await stores().blackoutDates.listApplying(workspaceId, tourId, {
        from: '2031-01-01',
        to: '2031-01-02',
      });
      // Workspace-wide and the tour's own; never another tour's.
      expect(applying.map((b) => `${b.date} ${b.tourId ?? 'all'}`).sort()).toEqual(
        ['2031-01-01 all', `2031-01-01 ${tourId}`].sort(),
      );
      const pages = await allPages((after) =>
        stores().blackoutDates.list(workspaceId, {}, { limit: 1, after }),
      );
      expect(pages.flat().map((b) => b.date)).toEqual(['2031-01-01', '2031-01-01', '2031-01-02']);
      expect(
        await stores().blackoutDates.listApplying(await fixtures.newWorkspace(knexOf()), tourId, {}),
      ).toEqual([]);
      // listOnDays: every scope on the days asked for, in this workspace only.
      const onDays = await stores().blackoutDates.listOnDays(workspaceId, ['2031-01-02', '2031-01-05']);
      expect(onDays.map((b) => `${b.date} ${b.tourId}`)).toEqual([`2031-01-02 ${otherTour}`]);
      const both = await stores().blackoutDates.listOnDays(workspaceId, ['2031-01-01', '2031-01-02']);
      expect(both).toHaveLength(3);
      expect(await stores().blackoutDates.listOnDays(workspaceId, [])).toEqual([]);
      expect(
        await stores().blackoutDates.listOnDays(await fixtures.newWorkspace(knexOf()), ['2031-01-01']),
      ).toEqual([]);
    });

    it('guides and time-off: a member once; overlap is half-open; another workspace sees nothing', async () => {
      const workspaceId = await fixtures.newWorkspace(knexOf());
      const memberId = await member(workspaceId);
      const guide = unwrap(
        await stores().guides.insert(workspaceId, {
          memberId,
          isGuide: true,
          displayName: 'G',
          phone: null,
          languages: ['en', 'it'],
          certifications: [],
        }),
      );
      expect(guide).toMatchObject({ memberId, languages: ['en', 'it'], email: `${memberId}@x.example` });
      const twice = await stores().guides.insert(workspaceId, { ...guide, displayName: 'Again' });
      expect(errorOf(twice)).toMatchObject({
        code: 'CONFLICT',
        details: [{ field: 'memberId', issue: 'already_exists' }],
      });
      expect(
        await stores().guides.findByMemberId(await fixtures.newWorkspace(knexOf()), memberId),
      ).toBeNull();
      expect((await stores().guides.update(workspaceId, memberId, { isGuide: false }))?.isGuide).toBe(false);
      expect(
        (await stores().guides.list(workspaceId, { activeOnly: true }, { limit: 10, after: null })).items,
      ).toEqual([]);

      await stores().timeOff.insert(workspaceId, {
        id: newId('timeOff'),
        memberId,
        startsAt: '2031-01-01T10:00:00.000Z',
        endsAt: '2031-01-01T12:00:00.000Z',
        reason: null,
      });
      const at = (iso: string) => new Date(iso);
      expect(
        await stores().timeOff.findOverlapping(
          workspaceId,
          memberId,
          at('2031-01-01T12:00:00Z'),
          at('2031-01-01T13:00:00Z'),
        ),
      ).toEqual([]);
      expect(
        await stores().timeOff.findOverlapping(
          workspaceId,
          memberId,
          at('2031-01-01T11:59:00Z'),
          at('2031-01-01T13:00:00Z'),
        ),
      ).toHaveLength(1);
      expect(await stores().members.lock(workspaceId, memberId)).toBe(true);
      expect(await stores().members.lock(await fixtures.newWorkspace(knexOf()), memberId)).toBe(false);
    });

    it('findOverlapping uses the tour duration and ignores cancelled and excluded departures', async () => {
      const knex = knexOf();
      const workspaceId = await fixtures.newWorkspace(knex);
      const tourId = await fixtures.newTour(knex, workspaceId); // 90 minutes
      const memberId = await member(workspaceId);
      const a = await fixtures.newDeparture(knex, workspaceId, tourId, '2031-05-01T09:00:00.000Z');
      const cancelled = await fixtures.newDeparture(knex, workspaceId, tourId, '2031-05-01T09:30:00.000Z', {
        status: 'CANCELLED',
      });
      await knex('availability').whereIn('id', [a, cancelled]).update({ driver_id: memberId });
      const busy = (start: string, end: string, exclude = 'none') =>
        stores().departures.findOverlapping(
          workspaceId,
          { memberId },
          new Date(start),
          new Date(end),
          exclude,
        );
      expect((await busy('2031-05-01T10:29:00Z', '2031-05-01T11:00:00Z')).map((d) => d.id)).toEqual([a]);
      expect(await busy('2031-05-01T10:30:00Z', '2031-05-01T11:00:00Z')).toEqual([]);
      expect(await busy('2031-05-01T10:00:00Z', '2031-05-01T11:00:00Z', a)).toEqual([]);
      expect(await stores().departures.hasOpenAssignments(workspaceId, { memberId })).toBe(true);
      expect(await stores().departures.hasOpenAssignments(workspaceId, { vehicleId: 'veh_x' })).toBe(false);
    });

    it('two transactions locking one member serialise', async () => {
      if (!concurrentSessions()) return;
      const knex = knexOf();
      const workspaceId = await fixtures.newWorkspace(knex);
      const memberId = await member(workspaceId);
      const order: string[] = [];
      const first = createUnitOfWork(knex).transaction(async ({ stores: tx }) => {
        await tx.members.lock(workspaceId, memberId);
        await new Promise((resolve) => setTimeout(resolve, 200));
        order.push('first');
        return { ok: true, value: null };
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      const second = createUnitOfWork(knex).transaction(async ({ stores: tx }) => {
        await tx.members.lock(workspaceId, memberId);
        order.push('second');
        return { ok: true, value: null };
      });
      await Promise.all([first, second]);
      expect(order).toEqual(['first', 'second']);
    });

    it('vehicles: registration unique ignoring case; vendors and incidents round-trip; itinerary items by start', async () => {
      const knex = knexOf();
      const workspaceId = await fixtures.newWorkspace(knex);
      const van = unwrap(
        await stores().vehicles.insert(workspaceId, {
          id: newId('vehicle'),
          name: 'Van',
          registration: 'AB-1',
          seats: 8,
          status: 'ACTIVE',
          notes: null,
        }),
      );
      const twin = await stores().vehicles.insert(workspaceId, {
        ...van,
        id: newId('vehicle'),
        registration: 'ab-1',
      });
      expect(errorOf(twin)).toMatchObject({
        code: 'CONFLICT',
        details: [{ field: 'registration', issue: 'already_exists' }],
      });
      expect(
        unwrap(await stores().vehicles.update(await fixtures.newWorkspace(knex), van.id, { seats: 2 })),
      ).toBeNull();

      const vendor = await stores().vendors.insert(workspaceId, {
        id: newId('vendor'),
        name: 'Hotel',
        category: 'ACCOMMODATION',
        contactName: null,
        email: null,
        phone: null,
        notes: null,
      });
      expect(await stores().vendors.findById(workspaceId, vendor.id)).toEqual(vendor);

      const incident = await stores().incidents.insert(workspaceId, {
        id: newId('incident'),
        availabilityId: null,
        bookingId: null,
        severity: 'HIGH',
        status: 'OPEN',
        title: 'T',
        description: null,
        occurredAt: '2031-01-01T00:00:00.000Z',
        reportedBy: 'tok_x',
        resolvedAt: null,
      });
      expect(await stores().incidents.findById(workspaceId, incident.id)).toEqual(incident);

      const customerId = await fixtures.newCustomer(knex, workspaceId);
      const trip = await stores().itineraries.insert({
        id: newId('itinerary'),
        workspaceId,
        customerId,
        title: 'Trip',
        startsOn: '2031-01-01',
        endsOn: '2031-01-03',
        notes: null,
        publicToken: newId('itinerary'),
      });
      expect(trip).toMatchObject({ startsOn: '2031-01-01', endsOn: '2031-01-03' });
      expect(await stores().itineraries.findByPublicToken(trip.publicToken)).toEqual(trip);
      const item = (startsAt: string) => ({
        id: newId('itineraryItem'),
        itineraryId: trip.id,
        type: 'OTHER' as const,
        title: startsAt,
        startsAt,
        endsAt: null,
        location: null,
        description: null,
        operatorNotes: null,
        bookingId: null,
      });
      await stores().itineraries.insertItem(workspaceId, item('2031-01-02T10:00:00.000Z'));
      await stores().itineraries.insertItem(workspaceId, item('2031-01-01T10:00:00.000Z'));
      const items = await stores().itineraries.listItems(workspaceId, trip.id);
      expect(items.map((i) => i.startsAt)).toEqual(['2031-01-01T10:00:00.000Z', '2031-01-02T10:00:00.000Z']);
      expect(await stores().itineraries.listItems(await fixtures.newWorkspace(knex), trip.id)).toEqual([]);
    });
  });
}
