// Builders for the booking steps' unit tests: plain records with sensible defaults. No test
// double of a store lives here; each test writes the few calls its step makes.
import type { Departure, DepartureForBooking, Tour } from '../catalog/index.js';
import type { UnitOfWork } from '../shared/ports.js';
import type { BookingRecord, BookingStores } from './ports.js';
import type { BookingCreateInput } from './schemas.js';

export const NOW = new Date('2031-06-01T12:00:00.000Z');
export const TOMORROW = '2031-06-02T09:00:00.000Z';

export const aTour = (overrides: Partial<Tour> = {}): Tour => ({
  id: 'tour_1',
  slug: 'night-walk',
  name: 'Night Walk',
  description: '',
  durationMinutes: 90,
  basePrice: 2500,
  currency: 'EUR',
  capacity: 20,
  meetingPoint: null,
  isPublic: true,
  depositPercent: 20,
  addOns: [{ id: 'lantern', name: 'Lantern', price: 300 }],
  createdAt: '2031-01-01T00:00:00.000Z',
  updatedAt: '2031-01-01T00:00:00.000Z',
  timeZone: 'UTC',
  ticketTypes: [],
  cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
  maxSeatsPerPublicBooking: 10,
  publicHoldMinutes: 15,
  reminderHoursBefore: null,
  resourceRequirements: [],
  ...overrides,
});

export const aDeparture = (overrides: Partial<Departure> = {}): Departure => ({
  id: 'avl_1',
  tourId: 'tour_1',
  startsAt: TOMORROW,
  capacity: 10,
  seatsRemaining: 10,
  bookedSeats: 0,
  status: 'SCHEDULED',
  guideId: null,
  driverId: null,
  vehicleId: null,
  bookingCutoffAt: null,
  createdAt: '2031-01-01T00:00:00.000Z',
  updatedAt: '2031-01-01T00:00:00.000Z',
  prices: [],
  scheduleId: null,
  heldSeats: 0,
  resourceIds: [],
  ...overrides,
});

export const aRead = (
  departure: Partial<Departure> = {},
  tour: Partial<Tour> = {},
  version = 7,
): DepartureForBooking => ({
  departure: aDeparture(departure),
  tour: aTour(tour),
  blackouts: [],
  version,
  sharedSeats: null,
});

export const aRequest = (overrides: Partial<BookingCreateInput> = {}): BookingCreateInput => ({
  availabilityId: 'avl_1',
  customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
  participants: [{ name: 'Ada' }],
  ...overrides,
});

export const aBooking = (overrides: Partial<BookingRecord> = {}): BookingRecord => ({
  id: 'bkg_1',
  workspaceId: 'ws_1',
  version: 1,
  status: 'PENDING',
  paymentStatus: 'UNPAID',
  paymentMode: 'CHECKOUT',
  totalAmount: 5000,
  currency: 'EUR',
  availabilityId: 'avl_1',
  tourId: 'tour_1',
  startsAt: TOMORROW,
  customerId: 'cus_1',
  participantCount: 2,
  participants: [],
  addOns: [],
  amountPaid: 0,
  amountRefunded: 0,
  paymentIntentId: null,
  publicToken: 'tok',
  notes: null,
  expiresAt: null,
  confirmedAt: null,
  cancelledAt: null,
  cancellationReason: null,
  externalReference: null,
  guestMessage: null,
  holderKey: null,
  cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
  createdAt: '2031-01-01T00:00:00.000Z',
  updatedAt: '2031-01-01T00:00:00.000Z',
  ...overrides,
});

type Answer = (...args: never[]) => unknown;

/**
 * Stores that write down each call (`bookings.insert`, ...) with its arguments and answer
 * from `answers` by that name (undefined otherwise), asynchronously as the real ones do.
 */
export function recordingStores(answers: Record<string, Answer> = {}) {
  const calls: Array<{ call: string; args: unknown[] }> = [];
  const store = (name: string) =>
    new Proxy(
      {},
      {
        // Not a thenable: `await` of a store stays the store.
        get: (_target, method: string) =>
          method === 'then'
            ? undefined
            : async (...args: unknown[]) => {
                const call = `${name}.${method}`;
                calls.push({ call, args });
                return (answers[call] as ((...args: unknown[]) => unknown) | undefined)?.(...args);
              },
      },
    );
  const stores = new Proxy({}, { get: (_target, name: string) => store(name) }) as BookingStores;
  return { stores, calls, names: () => calls.map((entry) => entry.call) };
}

/** A unit of work over `stores` whose transaction runs the work at once (the stores record). */
export const unitOfWorkOver = <S>(stores: S): UnitOfWork<S> => {
  const uow: UnitOfWork<S> = { stores, transaction: (work) => work(uow) };
  return uow;
};
