import { describe, expect, it } from 'vitest';
import type { OutboxEvent } from '../../events/index.js';
import { aBooking, NOW, recordingStores, TOMORROW } from '../test-fixtures.js';
import { announceChange, changeEmail } from './announce-change.js';

const before = aBooking({ startsAt: TOMORROW, participantCount: 2 });
const people = [{ name: 'Ada' }];

describe('changeEmail', () => {
  it.each([
    // case, input, moving -> previousStartsAt, previousParticipantCount (undefined: no e-mail)
    ['notes only', {}, false, undefined, undefined],
    ['moved', {}, true, TOMORROW, null],
    ['other participants', { participants: people }, false, null, 2],
    ['moved with other participants', { participants: people }, true, TOMORROW, 2],
    ['moved, the operator says not to tell', { notifyCustomer: false }, true, undefined, undefined],
    ['other participants, told explicitly', { participants: people, notifyCustomer: true }, false, null, 2],
  ])('%s', (_case, input, moving, previousStartsAt, previousParticipantCount) => {
    expect(changeEmail(before, input, moving)).toEqual(
      previousStartsAt === undefined
        ? null
        : { template: 'booking_changed', previousStartsAt, previousParticipantCount },
    );
  });
});

describe('announceChange', () => {
  const types = (calls: Array<{ args: unknown[] }>) => calls.map(({ args }) => (args[0] as OutboxEvent).type);

  it('booking.updated always, then the e-mail request when the guest would notice', async () => {
    const updated = aBooking({ version: 2 });
    const quiet = recordingStores();
    await announceChange(quiet.stores, { now: () => NOW }, before, updated, {}, false);
    expect(types(quiet.calls)).toEqual(['booking.updated']);
    const told = recordingStores();
    await announceChange(told.stores, { now: () => NOW }, before, updated, {}, true);
    expect(types(told.calls)).toEqual(['booking.updated', 'notification.email_requested']);
    expect(told.calls[0]?.args[1]).toBe('bkg_1');
  });
});
