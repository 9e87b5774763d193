import { describe, expect, it } from 'vitest';
import type { NewPaymentSession } from '../../payments/index.js';
import { NOW } from '../test-fixtures.js';
import { bookingLinks } from './booking-links.js';

const session: NewPaymentSession = {
  id: 'ps_1',
  token: 'tok',
  workspaceId: 'ws_1',
  bookingId: 'bkg_1',
  amount: 5000,
  currency: 'EUR',
  purpose: 'FULL',
  openedBy: 'guest',
  status: 'OPEN',
  expiresAt: NOW,
};
const payments = { checkoutUrl: (s: NewPaymentSession) => `https://pay.example/${s.token}` };

describe('bookingLinks', () => {
  it.each([
    ['CHECKOUT', { checkoutUrl: 'https://pay.example/tok' }],
    ['DEPOSIT', { checkoutUrl: 'https://pay.example/tok' }],
    ['PAYMENT_LINK', { paymentLinkUrl: 'https://pay.example/tok' }],
  ] as const)('%s: %j', (mode, links) => {
    expect(bookingLinks(session, mode, payments)).toEqual(links);
  });

  it('no payment page, no link', () => {
    expect(bookingLinks(null, 'CHECKOUT', payments)).toEqual({});
  });
});
