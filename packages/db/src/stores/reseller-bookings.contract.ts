import type { ResellerBookingLink } from '@travelops/domain/bookings';
import { newId } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { withTransaction } from '../database.js';
import { createStores } from '../unit-of-work.js';
import {
  type BookingScene,
  type ContractDatabase,
  newBooking,
  newBookingScene,
} from './contract-fixtures.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** OCTO links of bookings (migration 0013-octo); runs inside `describeStoreContract`. */
export function describeOctoStoreContract(database: () => ContractDatabase): void {
  const knex = (): Knex => database().knex;
  const stores = () => createStores(knex());

  const connection = async (workspaceId: string) =>
    (
      await stores().apiTokens.insert({
        id: newId('apiToken'),
        workspaceId,
        role: 'RESELLER',
        name: 'Reseller',
        prefix: 'tops_x',
        secretHash: newId('apiToken'),
        expiresAt: null,
      })
    ).id;

  const linked = async (
    scene: BookingScene,
    connectionId: string,
    link: Partial<ResellerBookingLink> = {},
    startsAt = scene.startsAt,
  ) => {
    const booking = await newBooking(knex(), scene, { startsAt });
    const full: ResellerBookingLink = {
      bookingId: booking.id,
      workspaceId: scene.workspaceId,
      connectionId,
      uuid: crypto.randomUUID(),
      resellerReference: null,
      contact: null,
      unitItems: booking.participants.map((p) => ({
        participantId: p.id,
        uuid: crypto.randomUUID(),
        resellerReference: null,
        contact: null,
      })),
      ...link,
    };
    await stores().resellerBookings.insert(full);
    return { booking, link: full };
  };

  describe('octo bookings', () => {
    it('finds a booking by its connection and uuid, with its link; never by another connection or workspace', async () => {
      const scene = await newBookingScene(knex());
      const mine = await connection(scene.workspaceId);
      const other = await connection(scene.workspaceId);
      const contact = {
        fullName: 'Ada Lovelace',
        firstName: null,
        lastName: null,
        emailAddress: 'ada@example.com',
        phoneNumber: null,
        locales: ['en'],
        postalCode: null,
        country: 'GB',
        notes: null,
      };
      const { booking, link } = await linked(scene, mine, { resellerReference: 'VOUCHER-1', contact });
      const found = await stores().resellerBookings.findByUuid(scene.workspaceId, mine, link.uuid);
      expect(found?.link).toEqual(link);
      expect(found?.booking).toEqual(booking);
      expect(await stores().resellerBookings.findByUuid(scene.workspaceId, other, link.uuid)).toBeNull();
      const elsewhere = await newBookingScene(knex());
      expect(await stores().resellerBookings.findByUuid(elsewhere.workspaceId, mine, link.uuid)).toBeNull();
    });

    it('a uuid is unique per connection; another connection may use it', async () => {
      const scene = await newBookingScene(knex());
      const mine = await connection(scene.workspaceId);
      const other = await connection(scene.workspaceId);
      const { link } = await linked(scene, mine);
      await expect(linked(scene, mine, { uuid: link.uuid })).rejects.toThrow(
        /octo_bookings_connection_uuid_key/,
      );
      await expect(linked(scene, other, { uuid: link.uuid })).resolves.toBeDefined();
    });

    it('update changes only what it is given', async () => {
      const scene = await newBookingScene(knex());
      const mine = await connection(scene.workspaceId);
      const { booking, link } = await linked(scene, mine, { resellerReference: 'OLD' });
      await stores().resellerBookings.update(scene.workspaceId, booking.id, { resellerReference: 'NEW' });
      const unitItems = [
        { participantId: 'ptc_x', uuid: crypto.randomUUID(), resellerReference: 'R', contact: null },
      ];
      await stores().resellerBookings.update(scene.workspaceId, booking.id, { unitItems });
      const found = await stores().resellerBookings.findByUuid(scene.workspaceId, mine, link.uuid);
      expect(found?.link).toEqual({ ...link, resellerReference: 'NEW', unitItems });
    });

    it('list: the connection bookings matching every filter, by start then id', async () => {
      const scene = await newBookingScene(knex());
      const mine = await connection(scene.workspaceId);
      const other = await connection(scene.workspaceId);
      const late = await linked(scene, mine, { resellerReference: 'REF' }, '2030-09-03T09:00:00.000Z');
      const early = await linked(scene, mine, { resellerReference: 'REF' }, '2030-09-01T09:00:00.000Z');
      const middle = await linked(scene, mine, {}, '2030-09-02T09:00:00.000Z');
      await linked(scene, other, { resellerReference: 'REF' }, '2030-09-02T09:00:00.000Z');
      const list = (
        filter: Parameters<ReturnType<typeof stores>['resellerBookings']['list']>[2],
        limit = 10,
      ) =>
        stores()
          .resellerBookings.list(scene.workspaceId, mine, filter, limit)
          .then((records) => records.map((r) => r.booking.id));
      expect(await list({ resellerReference: 'REF' })).toEqual([early.booking.id, late.booking.id]);
      expect(await list({ supplierReference: middle.booking.id })).toEqual([middle.booking.id]);
      expect(
        await list({
          startsFrom: new Date('2030-09-02T00:00:00Z'),
          startsBefore: new Date('2030-09-03T09:00:00Z'),
        }),
      ).toEqual([middle.booking.id]);
      expect(await list({ resellerReference: 'REF', startsFrom: new Date('2030-09-02T00:00:00Z') })).toEqual([
        late.booking.id,
      ]);
      expect(await list({}, 2)).toEqual([early.booking.id, middle.booking.id]);
    });

    it('lockUuid needs a transaction, and holds until it ends', async () => {
      const scene = await newBookingScene(knex());
      const mine = await connection(scene.workspaceId);
      const uuid = crypto.randomUUID();
      await expect(stores().resellerBookings.lockUuid(mine, uuid)).rejects.toThrow(/needs a transaction/);
      // Taken twice in one transaction (a reservation that joins its request's): no wait on itself.
      await withTransaction(knex(), async (trx) => {
        await createStores(trx).resellerBookings.lockUuid(mine, uuid);
        await createStores(trx).resellerBookings.lockUuid(mine, uuid);
      });
    });

    it('lockUuid makes a twin transaction wait until the first ends', async () => {
      if (!database().concurrentSessions) return;
      const scene = await newBookingScene(knex());
      const mine = await connection(scene.workspaceId);
      const uuid = crypto.randomUUID();
      const order: string[] = [];
      const first = withTransaction(knex(), async (trx) => {
        await createStores(trx).resellerBookings.lockUuid(mine, uuid);
        order.push('first locked');
        await pause(300);
        order.push('first done');
      });
      await pause(50);
      const second = withTransaction(knex(), async (trx) => {
        await createStores(trx).resellerBookings.lockUuid(mine, uuid);
        order.push('second locked');
      });
      await Promise.all([first, second]);
      expect(order).toEqual(['first locked', 'first done', 'second locked']);
    });
  });
}
