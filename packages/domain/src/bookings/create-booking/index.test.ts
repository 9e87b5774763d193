import { describe, expect, it } from 'vitest';
import type { NewCustomer } from '../../crm/index.js';
import type { NewPaymentSession } from '../../payments/index.js';
import {
  type BookingChannelPolicy,
  NATIVE_CHANNEL,
  publicChannel,
  resellerChannel,
} from '../channel-policy.js';
import type { NewBooking } from '../ports.js';
import { aRead, aRequest, NOW, recordingStores, unitOfWorkOver } from '../test-fixtures.js';
import { createBooking } from './index.js';

const payments = {
  checkoutUrl: (session: NewPaymentSession) => `https://pay.example/${session.token}`,
  startCheckout: () => Promise.reject(new Error('not in a booking')),
  refund: () => Promise.reject(new Error('not in a booking')),
};
const ctx = { workspaceId: 'ws_1', actor: { type: 'member' as const, id: 'mem_1' } };

/** Runs createBooking on recording stores: a departure with `seats` left, a customer new or known. */
function run(
  policy: BookingChannelPolicy,
  input = aRequest(),
  options: { known?: boolean; seats?: number } = {},
) {
  const recorded = recordingStores({
    'departures.findForBooking': () => aRead({ seatsRemaining: options.seats ?? 10 }),
    'bookings.liveHoldsOf': () => ({ count: 0, earliestExpiry: null }),
    'bookings.findExpiredHolds': () => [],
    'customers.findOrCreateByEmail': (_ws: string, c: NewCustomer) =>
      options.known ? { ...c, id: 'cus_old' } : c,
    'bookings.insert': (booking: NewBooking) => ({ ok: true, value: { ...booking, version: 1 } }),
    'bookings.claimExternalReference': () => ({ ok: false, error: { code: 'CONFLICT', message: 'taken' } }),
    'departures.takeSeats': () => ({ ok: true, value: true }),
  });
  const deps = { uow: unitOfWorkOver(recorded.stores), clock: { now: () => NOW }, payments };
  return { recorded, result: createBooking(deps, ctx, input, policy) };
}

describe('createBooking, the steps in order', () => {
  it.each<[string, BookingChannelPolicy, { known?: boolean }, string[]]>([
    [
      'native, a new customer: the seats last, with the commit',
      NATIVE_CHANNEL,
      {},
      [
        'departures.findForBooking',
        'customers.findOrCreateByEmail',
        'bookings.insert',
        'outbox.append',
        'departures.takeSeatsAtCommit',
      ],
    ],
    [
      "public with a holder: the client's holds counted after the read",
      publicChannel({ key: 'client-a', maxLiveHolds: 2 }),
      {},
      [
        'departures.findForBooking',
        'bookings.lockHolder',
        'bookings.liveHoldsOf',
        'customers.findOrCreateByEmail',
        'bookings.insert',
        'outbox.append',
        'departures.takeSeatsAtCommit',
      ],
    ],
    [
      'reseller, a known customer: the seats now, then its stats',
      resellerChannel(30),
      { known: true },
      [
        'departures.findForBooking',
        'customers.findOrCreateByEmail',
        'bookings.insert',
        'outbox.append',
        'departures.takeSeats',
        'customers.refreshStats',
      ],
    ],
  ])('%s', async (_case, policy, options, calls) => {
    const input =
      policy === NATIVE_CHANNEL ? aRequest() : aRequest({ paymentMode: policy.paymentModes?.allowed[0] });
    const { recorded, result } = run(policy, input, options);
    expect((await result).ok).toBe(true);
    expect(recorded.names()).toEqual(calls);
  });
});

describe('createBooking, its answer', () => {
  it('answers the booking as written and its checkout link', async () => {
    const { result } = run(NATIVE_CHANNEL, aRequest({ paymentMode: 'CHECKOUT' }));
    const created = await result;
    expect(created.ok && created.value.booking).toMatchObject({
      status: 'PENDING',
      totalAmount: 2500,
      version: 1,
    });
    expect(created.ok && created.value.links.checkoutUrl).toMatch(
      /^https:\/\/pay\.example\/[0-9A-Za-z]{32}$/,
    );
  });
});

describe('createBooking, its refusals', () => {
  it.each([
    ['a payment mode the channel refuses', publicChannel(), aRequest({ paymentMode: 'MANUAL' }), {}, []],
    [
      'a full departure',
      NATIVE_CHANNEL,
      aRequest(),
      { seats: 0 },
      ['departures.findForBooking', 'bookings.findExpiredHolds'],
    ],
    [
      'a reference another booking has',
      NATIVE_CHANNEL,
      aRequest({ externalReference: 'PO-1' }),
      {},
      [
        'departures.findForBooking',
        'customers.findOrCreateByEmail',
        'bookings.insert',
        'bookings.claimExternalReference',
      ],
    ],
  ] as const)(
    '%s: the failure is the answer, and nothing after the failing step runs',
    async (_case, policy, input, options, calls) => {
      const { recorded, result } = run(policy, input, options);
      expect((await result).ok).toBe(false);
      expect(recorded.names()).toEqual(calls);
    },
  );
});
