import type { ResellerBookingLink } from '@travelops/domain/bookings';
import { describe, expect, it } from 'vitest';
import { nextLink } from './next-link.js';

const link: ResellerBookingLink = {
  bookingId: 'bkg_1',
  workspaceId: 'ws_1',
  connectionId: 'tok_1',
  uuid: 'res-1',
  resellerReference: 'OLD',
  contact: null,
  unitItems: [],
};

describe('nextLink', () => {
  it('keeps the stored reference and contact when neither is sent', () => {
    expect(nextLink(link, {})).toEqual(link);
  });

  it('replaces the reference with the one sent', () => {
    expect(nextLink(link, { resellerReference: 'NEW' }).resellerReference).toBe('NEW');
  });

  it('stores a contact sent in the shape OCTO answers (every field present)', () => {
    const next = nextLink(link, { contact: { fullName: 'Ada Lovelace', emailAddress: 'ada@example.com' } });
    expect(next.contact).toMatchObject({
      fullName: 'Ada Lovelace',
      emailAddress: 'ada@example.com',
      phoneNumber: null,
    });
    expect(link.contact).toBeNull();
  });
});
