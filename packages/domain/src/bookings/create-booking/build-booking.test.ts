import { describe, expect, it } from 'vitest';
import { NATIVE_CHANNEL, publicChannel } from '../channel-policy.js';
import { aRead, NOW } from '../test-fixtures.js';
import { buildBooking, type DraftFacts } from './build-booking.js';

const later = new Date(NOW.getTime() + 30 * 60_000);
const facts = (overrides: Partial<DraftFacts> = {}): DraftFacts => ({
  ctx: { workspaceId: 'ws_1', actor: { type: 'member', id: 'mem_1' } },
  input: { participants: [{ name: 'Ada', ageBand: 'ADULT' }, { name: 'Bob' }], notes: 'window seats' },
  read: aRead(),
  sale: {
    seats: [
      { ticketTypeId: null, price: 2500 },
      { ticketTypeId: null, price: 2500 },
    ],
    total: 5300,
    addOns: [{ id: 'lantern', name: 'Lantern', unitPrice: 300, quantity: 1 }],
  },
  customer: { id: 'cus_1', isNew: true },
  mode: 'DEPOSIT',
  hold: { status: 'PENDING', expiresAt: later, payment: { amount: 1060, purpose: 'DEPOSIT' } },
  now: NOW,
  ...overrides,
});

describe('buildBooking', () => {
  it('a waiting booking: PENDING until its hold, naming the payment page it opens with', () => {
    const { booking, first, session } = buildBooking(facts(), NATIVE_CHANNEL);
    expect(booking).toMatchObject({
      workspaceId: 'ws_1',
      status: 'PENDING',
      paymentStatus: 'UNPAID',
      paymentMode: 'DEPOSIT',
      totalAmount: 5300,
      currency: 'EUR',
      availabilityId: 'avl_1',
      tourId: 'tour_1',
      customerId: 'cus_1',
      participantCount: 2,
      addOns: [{ id: 'lantern', quantity: 1 }],
      amountPaid: 0,
      notes: 'window seats',
      guestMessage: null,
      expiresAt: later.toISOString(),
      confirmedAt: null,
      externalReference: null,
      holderKey: null,
      cancellationPolicy: { cutoffHours: 24, refund: 'FULL', refundPercent: null },
    });
    expect(booking.participants.map((p) => [p.name, p.ageBand, p.price])).toEqual([
      ['Ada', 'ADULT', 2500],
      ['Bob', null, 2500],
    ]);
    expect(session).toMatchObject({
      bookingId: booking.id,
      amount: 1060,
      purpose: 'DEPOSIT',
      expiresAt: later,
    });
    expect(booking.paymentIntentId).toBe(session?.id);
    expect(first).toEqual({
      history: expect.objectContaining({ bookingId: booking.id, fromStatus: null, toStatus: 'PENDING' }),
      paymentSession: session,
      refreshCustomerStats: true,
    });
  });
});

describe('buildBooking, whose words the notes are', () => {
  it("a guest's notes become the guest's message, never the operator's internal notes", () => {
    const { booking } = buildBooking(facts(), publicChannel({ key: 'client-a', maxLiveHolds: 2 }));
    expect(booking).toMatchObject({ notes: null, guestMessage: 'window seats' });
  });
});

describe('buildBooking, by how it starts', () => {
  it('a free booking: CONFIRMED now, no payment page; an existing customer is refreshed later', () => {
    const { booking, first, session } = buildBooking(
      facts({
        hold: { status: 'CONFIRMED', expiresAt: null, payment: null },
        customer: { id: 'cus_old', isNew: false },
      }),
      NATIVE_CHANNEL,
    );
    expect(booking).toMatchObject({
      status: 'CONFIRMED',
      confirmedAt: NOW.toISOString(),
      paymentIntentId: null,
    });
    expect(session).toBeNull();
    expect(first).not.toHaveProperty('paymentSession');
    expect(first.refreshCustomerStats).toBe(false);
  });

  it("records the holder's key only for a channel that holds for a client", () => {
    const holder = { key: 'client-a', maxLiveHolds: 2 };
    expect(buildBooking(facts(), publicChannel(holder)).booking.holderKey).toBe('client-a');
    expect(buildBooking(facts(), publicChannel()).booking.holderKey).toBeNull();
  });

  it('each booking its own id and guest token', () => {
    const [a, b] = [buildBooking(facts(), NATIVE_CHANNEL), buildBooking(facts(), NATIVE_CHANNEL)];
    expect(a.booking.id).not.toBe(b.booking.id);
    expect(a.booking.publicToken).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(a.booking.publicToken).not.toBe(b.booking.publicToken);
  });
});
