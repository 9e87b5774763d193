import type { ErasurePlan } from '@travelops/domain/crm';
import { newId } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { createStores } from '../unit-of-work.js';
import {
  type ContractDatabase,
  newBooking,
  newBookingScene,
  newCustomer,
  newDeparture,
  participant,
} from './contract-fixtures.js';

const plan = (overrides: Partial<ErasurePlan> = {}): ErasurePlan => ({
  erasedAt: '2031-01-01T00:00:00.000Z',
  customer: { name: 'Erased customer', email: `${newId('customer').toLowerCase()}@erased.invalid` },
  terms: ['Ada Lovelace', 'ada@example.com'],
  participant: (p, index) => ({ ...p, name: `Participant ${index + 1}`, dietaryNotes: null }),
  text: (value) => value.replaceAll('Ada Lovelace', '[erased]'),
  json: (value) => JSON.parse(JSON.stringify(value).replaceAll('Ada Lovelace', '[erased]')),
  erasedText: '[erased]',
  resellerContact: {
    fullName: null,
    firstName: null,
    lastName: null,
    emailAddress: null,
    phoneNumber: null,
    locales: [],
    postalCode: null,
    country: null,
    notes: null,
  },
  ...overrides,
});

/** The personal data store (decisions §13): what an export reads and an erasure rewrites. */
export function describePersonalDataStoreContract(database: () => ContractDatabase): void {
  const knex = (): Knex => database().knex;
  const stores = () => createStores(knex());

  describe('personal data', () => {
    it('collects the bookings and notes, then erases them keeping amounts, seats and dates', async () => {
      const scene = await newBookingScene(knex());
      await knex()('customers')
        .where({ id: scene.customerId })
        .update({ name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 555', marketing_consent: true });
      const booking = await newBooking(knex(), scene, {
        participants: [{ ...participant('Ada Lovelace'), dietaryNotes: 'vegan' }, participant('Alan')],
        notes: 'Ada Lovelace prefers the front seat',
        cancellationReason: 'Ada Lovelace fell ill',
      });
      await stores().customerNotes.insert(scene.workspaceId, {
        id: newId('customerNote'),
        customerId: scene.customerId,
        body: 'Met Ada at the fair',
        author: { type: 'system', id: null },
      });

      const collected = await stores().personalData.collect(scene.workspaceId, scene.customerId);
      expect(collected.bookings.map((b) => b.id)).toEqual([booking.id]);
      expect(collected.notes.map((n) => n.body)).toEqual(['Met Ada at the fair']);
      expect(await stores().personalData.erasedAt(scene.workspaceId, scene.customerId)).toBeNull();
      expect(await stores().personalData.erasedAt(scene.workspaceId, 'cus_none')).toBeUndefined();

      const erasure = plan();
      const counts = await stores().personalData.erase(scene.workspaceId, scene.customerId, erasure);
      expect(counts).toMatchObject({ customers: 1, bookings: 1, customer_notes: 1 });

      const locked = await knex().transaction((trx) =>
        createStores(trx).personalData.lockCustomer(scene.workspaceId, scene.customerId),
      );
      expect(locked?.erasedAt).toBe(erasure.erasedAt);
      expect(locked?.customer).toMatchObject({
        name: 'Erased customer',
        email: erasure.customer.email,
        phone: null,
        marketingConsent: false,
      });
      const [after] = await stores().personalData.bookingsOf(scene.workspaceId, scene.customerId);
      expect(after).toMatchObject({
        totalAmount: booking.totalAmount,
        participantCount: 2,
        startsAt: booking.startsAt,
        notes: null,
        cancellationReason: '[erased] fell ill',
      });
      expect(after?.participants.map((p) => [p.name, p.dietaryNotes, p.price])).toEqual([
        ['Participant 1', null, 4500],
        ['Participant 2', null, 4500],
      ]);
      const notes = await stores().personalData.collect(scene.workspaceId, scene.customerId);
      expect(notes.notes.map((n) => n.body)).toEqual(['[erased]']);
    });

    it('finds customers past their workspace retention: last departure older, never one erased or upcoming', async () => {
      const scene = await newBookingScene(knex(), '2030-01-10T09:00:00.000Z');
      await knex()('workspaces').where({ id: scene.workspaceId }).update({ customer_retention_months: 12 });
      await knex()('customers')
        .where({ workspace_id: scene.workspaceId })
        .update({ created_at: '2029-01-01T00:00:00.000Z' });
      await newBooking(knex(), scene, { status: 'COMPLETED' });
      // A second customer whose last departure is recent, and a third erased already.
      const recent = await newCustomer(knex(), scene.workspaceId);
      const later = await newDeparture(knex(), scene.workspaceId, scene.tourId, '2030-12-01T09:00:00.000Z');
      await newBooking(knex(), {
        ...scene,
        customerId: recent,
        availabilityId: later,
        startsAt: '2030-12-01T09:00:00.000Z',
      });
      const erased = await newCustomer(knex(), scene.workspaceId);
      await knex()('customers')
        .whereIn('id', [recent, erased])
        .update({ created_at: '2029-01-01T00:00:00.000Z' });
      await knex()('customers').where({ id: erased }).update({ erased_at: '2030-01-01T00:00:00.000Z' });

      const due = await stores().personalData.findPastRetention(new Date('2031-02-01T00:00:00.000Z'), 1000);
      const mine = due.filter((d) => d.workspaceId === scene.workspaceId).map((d) => d.customerId);
      expect(mine).toEqual([scene.customerId]);
      // Without the setting, nothing is due.
      await knex()('workspaces').where({ id: scene.workspaceId }).update({ customer_retention_months: null });
      const none = await stores().personalData.findPastRetention(new Date('2031-02-01T00:00:00.000Z'), 1000);
      expect(none.filter((d) => d.workspaceId === scene.workspaceId)).toEqual([]);
    });
  });
}
