import { describe, expect, it } from 'vitest';
import type { OutboxEvent } from '../../events/index.js';
import { type BookingChannelPolicy, NATIVE_CHANNEL, resellerChannel } from '../channel-policy.js';
import type { UpdateBookingInput } from '../schemas.js';
import { aBooking, aDeparture, aTour, NOW, recordingStores, unitOfWorkOver } from '../test-fixtures.js';
import { updateBooking } from './index.js';

const ctx = { workspaceId: 'ws_1', actor: { type: 'member' as const, id: 'mem_1' } };
const booking = aBooking({ participantCount: 2, totalAmount: 5000, version: 4 });
const here = aDeparture({ id: 'avl_1' });
const later = aDeparture({ id: 'avl_2', startsAt: '2031-06-09T09:00:00.000Z' });
const otherTour = aDeparture({ id: 'avl_9', tourId: 'tour_2' });

function run(input: UpdateBookingInput, policy?: BookingChannelPolicy, ifMatch?: number) {
  const recorded = recordingStores({
    'bookings.lockWithDepartures': () => ({
      ok: true,
      value: { booking, departures: new Map([here, later, otherTour].map((d) => [d.id, d])) },
    }),
    'tours.findById': (_ws: string, id: string) => aTour({ id, basePrice: 2000 }),
    'blackoutDates.listApplying': () => [],
    'departures.adjustBookedSeats': () => ({ ok: true, value: {} }),
    'bookings.update': () => ({ ...booking, version: 5 }),
  });
  const deps = { uow: unitOfWorkOver(recorded.stores), clock: { now: () => NOW } };
  return { recorded, result: updateBooking(deps, ctx, 'bkg_1', input, ifMatch, policy) };
}

describe('updateBooking, the steps in order', () => {
  it.each([
    [
      'notes only: no seat, no tour read, no e-mail',
      { notes: 'x' },
      ['bookings.lockWithDepartures', 'bookings.update', 'outbox.append'],
    ],
    [
      'moved: room checked, seats moved, the guest told',
      { availabilityId: 'avl_2' },
      [
        'bookings.lockWithDepartures',
        'tours.findById',
        'blackoutDates.listApplying',
        'departures.adjustBookedSeats',
        'departures.adjustBookedSeats',
        'bookings.update',
        'outbox.append',
        'outbox.append',
      ],
    ],
    [
      'one participant fewer: repriced, open pages closed for the new total',
      { participants: [{ name: 'Ada' }] },
      [
        'bookings.lockWithDepartures',
        'tours.findById',
        'departures.adjustBookedSeats',
        'payments.expireOpenSessions',
        'bookings.update',
        'outbox.append',
        'outbox.append',
      ],
    ],
  ])('%s', async (_case, input, calls) => {
    const { recorded, result } = run(input);
    expect(await result).toMatchObject({ ok: true, value: { version: 5 } });
    expect(recorded.names()).toEqual(calls);
  });
});

describe('updateBooking, its locks, refusals and policy', () => {
  it('locks the booking with the departure it may move to', async () => {
    const { recorded, result } = run({ availabilityId: 'avl_2' });
    await result;
    expect(recorded.calls[0]?.args).toEqual(['ws_1', 'bkg_1', 'avl_2']);
    const email = recorded.calls.at(-1)?.args[0] as OutboxEvent;
    expect(email.data).toMatchObject({ template: 'booking_changed', previousStartsAt: booking.startsAt });
  });

  it.each<[string, UpdateBookingInput, BookingChannelPolicy, number | undefined, string]>([
    ['a stale If-Match', { notes: 'x' }, NATIVE_CHANNEL, 3, 'stale'],
    [
      'another tour on the native API',
      { availabilityId: 'avl_9', participants: [{ name: 'A' }] },
      NATIVE_CHANNEL,
      undefined,
      'different_tour',
    ],
  ])('%s: refused before anything is written', async (_case, input, policy, ifMatch, issue) => {
    const { recorded, result } = run(input, policy, ifMatch);
    const answer = await result;
    expect(answer.ok ? null : answer.error.details?.[0]?.issue).toBe(issue);
    expect(recorded.names()).toEqual(['bookings.lockWithDepartures']);
  });

  it("another tour where the channel's policy allows it: tour and currency follow", async () => {
    const { recorded, result } = run(
      { availabilityId: 'avl_9', participants: [{ name: 'A' }] },
      resellerChannel(30),
    );
    expect((await result).ok).toBe(true);
    const update = recorded.calls.find(({ call }) => call === 'bookings.update');
    expect(update?.args[2]).toMatchObject({
      availabilityId: 'avl_9',
      tourId: 'tour_2',
      currency: 'EUR',
      totalAmount: 2000,
    });
  });
});
