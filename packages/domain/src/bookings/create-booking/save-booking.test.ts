import { describe, expect, it } from 'vitest';
import { conflict } from '../../shared/errors.js';
import type { NewBooking } from '../ports.js';
import { aBooking, recordingStores } from '../test-fixtures.js';
import { saveBooking } from './save-booking.js';

const saved = aBooking({ id: 'bkg_9' });
const draft = { booking: saved as NewBooking, first: { refreshCustomerStats: true } };

describe('saveBooking', () => {
  it('one insert when there is no reference to claim', async () => {
    const { stores, calls } = recordingStores({ 'bookings.insert': () => ({ ok: true, value: saved }) });
    expect(await saveBooking(stores, draft, undefined)).toEqual({ ok: true, value: saved });
    expect(calls).toEqual([{ call: 'bookings.insert', args: [draft.booking, draft.first] }]);
  });

  it('claims the reference on the inserted booking and answers the booking as claimed', async () => {
    const claimed = { ...saved, externalReference: 'PO-7', version: 2 };
    const { stores, calls } = recordingStores({
      'bookings.insert': () => ({ ok: true, value: saved }),
      'bookings.claimExternalReference': () => ({ ok: true, value: claimed }),
    });
    expect(await saveBooking(stores, draft, 'PO-7')).toEqual({ ok: true, value: claimed });
    expect(calls[1]).toEqual({ call: 'bookings.claimExternalReference', args: ['ws_1', 'bkg_9', 'PO-7'] });
  });

  it.each([
    [
      'the insert fails (its departure deleted)',
      { ok: false, error: { ...conflict('gone'), retryable: true } },
      null,
    ],
    [
      'the reference is taken',
      { ok: true, value: saved },
      { ok: false, error: conflict('taken', 'externalReference', 'already_exists') },
    ],
  ])('%s: the failure is the answer', async (_case, insert, claim) => {
    const { stores } = recordingStores({
      'bookings.insert': () => insert,
      'bookings.claimExternalReference': () => claim,
    });
    const result = await saveBooking(stores, draft, 'PO-7');
    expect(result).toEqual(claim ?? insert);
  });
});
