import { newId } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { createStores, createUnitOfWork } from '../unit-of-work.js';
import * as fixtures from './contract-fixtures.js';
import { allPages, unwrap } from './contract-fixtures.js';

/** The resource store and the departures' resource columns (migration 0020), on every database kind. */
export function describeResourceStoreContract(knexOf: () => Knex): void {
  describe('resources', () => {
    const stores = () => createStores(knexOf());
    const boat = (workspaceId: string, overrides: Record<string, unknown> = {}) =>
      stores().resources.insert(workspaceId, {
        id: newId('resource'),
        kind: 'BOAT',
        name: 'Marlin',
        seats: 12,
        sharing: 'SHARED_SEATS',
        turnaroundMinutes: 0,
        active: true,
        ...overrides,
      });

    it('round-trips, pages newest first, filters by kind, stays in its workspace', async () => {
      const workspaceId = await fixtures.newWorkspace(knexOf());
      const made = await boat(workspaceId, { turnaroundMinutes: 15 });
      expect(made).toMatchObject({ kind: 'BOAT', seats: 12, sharing: 'SHARED_SEATS', turnaroundMinutes: 15 });
      const room = await boat(workspaceId, { kind: 'ROOM', seats: null, sharing: 'EXCLUSIVE' });
      expect(await stores().resources.findById(workspaceId, made.id)).toEqual(made);
      expect(await stores().resources.findById(await fixtures.newWorkspace(knexOf()), made.id)).toBeNull();
      const pages = await allPages((after) => stores().resources.list(workspaceId, {}, { limit: 1, after }));
      expect(
        pages
          .flat()
          .map((r) => r.id)
          .sort(),
      ).toEqual([room.id, made.id].sort());
      const boats = await stores().resources.list(workspaceId, { kind: 'BOAT' }, { limit: 10, after: null });
      expect(boats.items.map((r) => r.id)).toEqual([made.id]);
      expect((await stores().resources.update(workspaceId, made.id, { seats: 10 }))?.seats).toBe(10);
      expect(await stores().resources.delete(workspaceId, room.id)).toBe(true);
      expect(await stores().resources.findByIds(workspaceId, [room.id, made.id])).toHaveLength(1);
    });

    it('a vehicle is a resource under its id, and a departure with it has it among its resources', async () => {
      const workspaceId = await fixtures.newWorkspace(knexOf());
      const tourId = await fixtures.newTour(knexOf(), workspaceId);
      const vehicle = unwrap(
        await stores().vehicles.insert(workspaceId, {
          id: newId('vehicle'),
          name: 'Van',
          registration: null,
          seats: 8,
          status: 'ACTIVE',
          notes: null,
        }),
      );
      expect(await stores().resources.findById(workspaceId, vehicle.id)).toMatchObject({
        kind: 'VEHICLE',
        sharing: 'EXCLUSIVE',
        seats: 8,
        active: true,
      });
      const departureId = await fixtures.newDeparture(
        knexOf(),
        workspaceId,
        tourId,
        '2031-05-01T09:00:00.000Z',
      );
      const assigned = unwrap(
        await stores().departures.updateWith(workspaceId, departureId, () => ({
          ok: true,
          value: { vehicleId: vehicle.id },
        })),
      );
      expect(assigned.resourceIds).toEqual([vehicle.id]);
      const cleared = unwrap(
        await stores().departures.updateWith(workspaceId, departureId, () => ({
          ok: true,
          value: { vehicleId: null },
        })),
      );
      expect(cleared.resourceIds).toEqual([]);
    });

    it('shared seats: counted over overlapping departures (turnaround included), checked with the seats', async () => {
      const workspaceId = await fixtures.newWorkspace(knexOf());
      const tourId = await fixtures.newTour(knexOf(), workspaceId); // 90 minutes
      const shared = await boat(workspaceId, { turnaroundMinutes: 30 });
      const insert = (startsAt: string) =>
        stores().departures.insert(workspaceId, {
          id: newId('availability'),
          tourId,
          startsAt: new Date(startsAt),
          capacity: 10,
          status: 'SCHEDULED',
          bookingCutoffAt: null,
          resourceIds: [shared.id],
        });
      const first = await insert('2031-05-01T09:00:00.000Z');
      // 10:45 is within 09:00 + 90 + 30 minutes; 11:00 is not.
      const second = await insert('2031-05-01T10:45:00.000Z');
      const third = await insert('2031-05-01T11:00:00.000Z');
      expect(first.resourceIds).toEqual([shared.id]);
      unwrap(await stores().departures.adjustBookedSeats(workspaceId, first.id, 8));
      expect((await stores().departures.findById(workspaceId, second.id))?.seatsRemaining).toBe(4);
      expect((await stores().departures.findById(workspaceId, third.id))?.seatsRemaining).toBe(10);
      const read = await stores().departures.findForBooking(workspaceId, second.id);
      expect(read?.sharedSeats).toEqual({ resourceId: shared.id, seatsLeft: 4 });
      expect(read?.departure.seatsRemaining).toBe(10);
      expect(
        await stores().resources.findOversold(workspaceId, shared.id, { seats: 7, turnaroundMinutes: 30 }),
      ).toEqual([{ id: first.id, seatsUsed: 8 }]);

      // Five more on the second: the commit refuses them (the shared check is in travelops_take_seats).
      const uow = createUnitOfWork(knexOf());
      const refused = await uow.transaction(async ({ stores: tx }) => {
        await tx.departures.takeSeatsAtCommit(workspaceId, second.id, 5, read?.version ?? 0);
        return { ok: true as const, value: true };
      });
      expect(refused).toMatchObject({ ok: false, error: { code: 'CONFLICT', retryable: true } });
      const now = await uow.transaction(async ({ stores: tx }) => {
        const taken = await tx.departures.takeSeats(workspaceId, second.id, 5, read?.version ?? 0);
        return taken.ok ? taken : { ok: false as const, error: taken.error };
      });
      expect(now).toEqual({ ok: false, error: { reason: 'resource_full', resourceId: shared.id } });
      expect((await stores().departures.findById(workspaceId, second.id))?.bookedSeats).toBe(0);
      const four = await uow.transaction(async ({ stores: tx }) => {
        await tx.departures.takeSeatsAtCommit(workspaceId, second.id, 4, read?.version ?? 0);
        return { ok: true as const, value: true };
      });
      expect(four).toEqual({ ok: true, value: true });
      expect(await stores().departures.findFullSharedResource(workspaceId, first.id)).toBeNull();
    });

    it('finds the first free resource of a kind, by name, with enough seats', async () => {
      const workspaceId = await fixtures.newWorkspace(knexOf());
      const tourId = await fixtures.newTour(knexOf(), workspaceId);
      const b = await boat(workspaceId, { name: 'B', sharing: 'EXCLUSIVE' });
      const a = await boat(workspaceId, { name: 'A', sharing: 'EXCLUSIVE' });
      await boat(workspaceId, { name: '0 small', seats: 2, sharing: 'EXCLUSIVE' });
      const want = {
        kind: 'BOAT' as const,
        seats: 10,
        start: new Date('2031-05-01T09:00:00.000Z'),
        minutes: 90,
        excludeIds: [],
      };
      expect((await stores().resources.findFree(workspaceId, want))?.id).toBe(a.id);
      await stores().departures.insert(workspaceId, {
        id: newId('availability'),
        tourId,
        startsAt: new Date('2031-05-01T10:00:00.000Z'),
        capacity: 10,
        status: 'SCHEDULED',
        bookingCutoffAt: null,
        resourceIds: [a.id],
      });
      expect((await stores().resources.findFree(workspaceId, want))?.id).toBe(b.id);
      expect(await stores().resources.findFree(workspaceId, { ...want, excludeIds: [b.id] })).toBeNull();
    });
  });
}
