import type { BookingRecord, NewBooking, Participant } from '@travelops/domain/bookings';
import type { NewTour } from '@travelops/domain/catalog';
import {
  type DepartureStatus,
  type DomainError,
  newId,
  type Page,
  type Result,
} from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { expect } from 'vitest';
import { createStores } from '../unit-of-work.js';

/** What a contract test file hands the shared store tests. */
export interface ContractDatabase {
  knex: Knex;
  close(): Promise<void>;
  /** False on PGlite: one connection, so concurrent transactions queue instead of overlapping. */
  concurrentSessions: boolean;
}

/** Bytewise, as ids are ordered by the database (collation "C"). */
export const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.code}: ${result.error.message}`);
  return result.value;
}

export function errorOf<T>(result: Result<T>): DomainError {
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

/** Every page of a keyset-paginated list, following `next` until the last page. */
export async function allPages<T>(fetch: (after: Page<T>['next']) => Promise<Page<T>>): Promise<T[][]> {
  const pages: T[][] = [];
  let after: Page<T>['next'] = null;
  for (;;) {
    const page = await fetch(after);
    pages.push(page.items);
    expect(page.next === null).toBe(!page.hasMore);
    if (!page.next) return pages;
    after = page.next;
  }
}

export const tourFields = (slug: string, overrides: Partial<NewTour> = {}): NewTour => ({
  id: newId('tour'),
  slug,
  name: `Tour ${slug}`,
  description: '',
  durationMinutes: 90,
  basePrice: 4500,
  currency: 'EUR',
  capacity: 12,
  meetingPoint: null,
  isPublic: false,
  depositPercent: 20,
  addOns: [],
  timeZone: 'UTC',
  ticketTypes: [],
  cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
  maxSeatsPerPublicBooking: 10,
  publicHoldMinutes: 15,
  reminderHoursBefore: 24,
  resourceRequirements: [],
  ...overrides,
});

export async function newWorkspace(knex: Knex): Promise<string> {
  const id = newId('workspace');
  unwrap(
    await createStores(knex).workspaces.insert({ id, slug: id.toLowerCase().replace('_', '-'), name: 'W' }),
  );
  return id;
}

export async function newTour(knex: Knex, workspaceId: string, slug = 'walk'): Promise<string> {
  return unwrap(await createStores(knex).tours.insert(workspaceId, tourFields(slug))).id;
}

export async function newDeparture(
  knex: Knex,
  workspaceId: string,
  tourId: string,
  startsAt: string,
  extra: { status?: DepartureStatus; bookingCutoffAt?: string; capacity?: number } = {},
): Promise<string> {
  const departure = await createStores(knex).departures.insert(workspaceId, {
    id: newId('availability'),
    tourId,
    startsAt: new Date(startsAt),
    capacity: extra.capacity ?? 10,
    status: 'SCHEDULED',
    bookingCutoffAt: extra.bookingCutoffAt ? new Date(extra.bookingCutoffAt) : null,
  });
  if (extra.status) await knex('availability').where({ id: departure.id }).update({ status: extra.status });
  return departure.id;
}

export async function newCustomer(knex: Knex, workspaceId: string, email = `${newId('customer')}@x.example`) {
  const customers = createStores(knex).customers;
  const created = await customers.insert(workspaceId, {
    id: newId('customer'),
    name: 'Guest',
    email,
    phone: null,
    tags: [],
    marketingConsent: false,
  });
  return unwrap(created).id;
}

export const participant = (name: string): Participant => ({
  id: newId('participant'),
  name,
  ageBand: 'ADULT',
  dietaryNotes: null,
  accessibilityNotes: null,
  emergencyContact: null,
  waiverSigned: false,
  checkedInAt: null,
  ticketTypeId: null,
  price: 4500,
});

/** What a booking needs to exist: its workspace, tour, departure and customer. */
export interface BookingScene {
  workspaceId: string;
  tourId: string;
  availabilityId: string;
  startsAt: string;
  customerId: string;
}

export async function newBookingScene(
  knex: Knex,
  startsAt = '2030-09-01T09:00:00.000Z',
): Promise<BookingScene> {
  const workspaceId = await newWorkspace(knex);
  const tourId = await newTour(knex, workspaceId);
  const availabilityId = await newDeparture(knex, workspaceId, tourId, startsAt);
  const customerId = await newCustomer(knex, workspaceId);
  return { workspaceId, tourId, availabilityId, startsAt, customerId };
}

export const bookingFields = (scene: BookingScene, overrides: Partial<NewBooking> = {}): NewBooking => ({
  id: newId('booking'),
  workspaceId: scene.workspaceId,
  customerId: scene.customerId,
  availabilityId: scene.availabilityId,
  tourId: scene.tourId,
  startsAt: scene.startsAt,
  status: 'PENDING',
  paymentStatus: 'UNPAID',
  paymentMode: 'MANUAL',
  totalAmount: 9000,
  currency: 'EUR',
  participantCount: 2,
  participants: [participant('Ada'), participant('Alan')],
  addOns: [],
  amountPaid: 0,
  amountRefunded: 0,
  paymentIntentId: null,
  publicToken: null,
  notes: null,
  expiresAt: null,
  confirmedAt: null,
  cancelledAt: null,
  cancellationReason: null,
  externalReference: null,
  guestMessage: null,
  holderKey: null,
  cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
  ...overrides,
});

export async function newBooking(
  knex: Knex,
  scene: BookingScene,
  overrides: Partial<NewBooking> = {},
): Promise<BookingRecord> {
  return unwrap(await createStores(knex).bookings.insert(bookingFields(scene, overrides)));
}
