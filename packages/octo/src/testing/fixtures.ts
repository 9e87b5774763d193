import type { BookingRecord, Participant } from '@travelops/domain/bookings';
import type { DepartureView, Tour } from '@travelops/domain/catalog';

// Records the OCTO mappers and steps are tested over: a tour with three ticket types, one of
// its departures, and a pending booking of one adult.

export const NOW = new Date('2031-03-10T12:00:00.000Z');

export const tour = (overrides: Partial<Tour> = {}): Tour => ({
  id: 'tour_1',
  slug: 'walk',
  name: 'Walk',
  description: '',
  durationMinutes: 90,
  basePrice: 2500,
  currency: 'EUR',
  capacity: 10,
  meetingPoint: null,
  isPublic: true,
  depositPercent: 20,
  addOns: [],
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
  timeZone: 'Europe/Berlin',
  ticketTypes: [
    {
      id: 'tt_a',
      name: 'Adult',
      ageBand: 'ADULT',
      price: 3000,
      minAge: 18,
      maxAge: null,
      minPerBooking: null,
      maxPerBooking: null,
      requiresAdult: false,
    },
    {
      id: 'tt_s',
      name: 'Senior',
      ageBand: 'SENIOR',
      price: 2000,
      minAge: 65,
      maxAge: null,
      minPerBooking: null,
      maxPerBooking: null,
      requiresAdult: false,
    },
    {
      id: 'tt_c',
      name: 'Child',
      ageBand: 'CHILD',
      price: 1500,
      minAge: 4,
      maxAge: 12,
      minPerBooking: 1,
      maxPerBooking: 4,
      requiresAdult: true,
    },
  ],
  cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
  maxSeatsPerPublicBooking: 10,
  publicHoldMinutes: 15,
  reminderHoursBefore: 24,
  resourceRequirements: [],
  ...overrides,
});

export const departure = (overrides: Partial<DepartureView> = {}): DepartureView => ({
  id: 'avl_1',
  tourId: 'tour_1',
  startsAt: '2031-03-14T18:30:00.000Z',
  capacity: 10,
  seatsRemaining: 6,
  bookedSeats: 4,
  status: 'SCHEDULED',
  guideId: null,
  driverId: null,
  vehicleId: null,
  bookingCutoffAt: null,
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
  prices: [],
  scheduleId: null,
  heldSeats: 0,
  salesStatus: 'AVAILABLE',
  resourceIds: [],
  ...overrides,
});

export const person = (overrides: Partial<Participant> = {}): Participant => ({
  id: 'ptc_0123456789ABCDEFGHIJab',
  name: 'Ada',
  ageBand: 'ADULT',
  dietaryNotes: null,
  accessibilityNotes: null,
  emergencyContact: null,
  waiverSigned: false,
  checkedInAt: null,
  ticketTypeId: 'tt_a',
  price: 3000,
  ...overrides,
});

export const booking = (overrides: Partial<BookingRecord> = {}): BookingRecord =>
  ({
    id: 'bkg_1',
    workspaceId: 'ws_1',
    status: 'PENDING',
    startsAt: '2031-03-14T18:30:00.000Z',
    expiresAt: '2031-03-10T12:30:00.000Z',
    cancellationReason: null,
    participants: [person()],
    cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
    ...overrides,
  }) as BookingRecord;
