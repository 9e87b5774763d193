import { describe, expect, it } from 'vitest';
import { conflict } from '../../shared/errors.js';
import { aBooking, recordingStores } from '../test-fixtures.js';
import { saveChange } from './save-change.js';

const booking = aBooking({ externalReference: 'PO-1' });
const updated = aBooking({ notes: 'new', version: 2 });

const storesAnswering = (claim: unknown = null) =>
  recordingStores({
    'bookings.update': () => updated,
    'bookings.claimExternalReference': () => claim,
  });

describe('saveChange', () => {
  it.each([
    ['no new total, no reference', {}, undefined, ['bookings.update']],
    [
      'a new total: open pages close first',
      { totalAmount: 4000 },
      undefined,
      ['payments.expireOpenSessions', 'bookings.update'],
    ],
    ['the reference it has', {}, 'PO-1', ['bookings.update']],
    ['a new reference', {}, 'PO-2', ['bookings.update', 'bookings.claimExternalReference']],
    ['the reference cleared', {}, null, ['bookings.update', 'bookings.claimExternalReference']],
  ] as const)('%s: %j', async (_case, patch, reference, calls) => {
    const { stores, names } = storesAnswering({ ok: true, value: updated });
    expect(await saveChange(stores, 'ws_1', booking, patch, reference)).toEqual({ ok: true, value: updated });
    expect(names()).toEqual(calls);
  });

  it('a reference another booking has: the 409 is the answer', async () => {
    const taken = { ok: false, error: conflict('taken', 'externalReference', 'already_exists') };
    const { stores, calls } = storesAnswering(taken);
    expect(await saveChange(stores, 'ws_1', booking, { notes: 'x' }, 'PO-2')).toEqual(taken);
    expect(calls[0]).toEqual({ call: 'bookings.update', args: ['ws_1', 'bkg_1', { notes: 'x' }] });
  });
});
