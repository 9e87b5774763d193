import { describe, expect, it } from 'vitest';
import {
  checkEstimatedValue,
  checkLeadConvertible,
  decideLeadStatus,
  taskCompletion,
  toTimelineEntry,
} from './rules.js';
import type { LeadStatus } from './schemas.js';

describe('decideLeadStatus', () => {
  it.each<[LeadStatus, LeadStatus]>([
    ['NEW', 'CONTACTED'],
    ['NEW', 'QUALIFIED'],
    ['NEW', 'LOST'],
    ['CONTACTED', 'QUALIFIED'],
    ['CONTACTED', 'LOST'],
    ['QUALIFIED', 'CONTACTED'],
    ['QUALIFIED', 'LOST'],
    ['LOST', 'NEW'],
    ['NEW', 'NEW'],
    ['CONVERTED', 'CONVERTED'],
  ])('%s -> %s is allowed', (from, to) => {
    expect(decideLeadStatus(from, to)).toEqual({ ok: true, value: to });
  });

  it.each<[LeadStatus, LeadStatus]>([
    ['CONTACTED', 'NEW'],
    ['QUALIFIED', 'NEW'],
    ['LOST', 'QUALIFIED'],
    ['CONVERTED', 'NEW'],
    ['CONVERTED', 'LOST'],
  ])('%s -> %s is 422 invalid_transition', (from, to) => {
    expect(decideLeadStatus(from, to)).toMatchObject({
      ok: false,
      error: { code: 'UNPROCESSABLE', details: [{ field: 'status', issue: 'invalid_transition' }] },
    });
  });

  it('CONVERTED is reached only through the convert operation', () => {
    expect(decideLeadStatus('QUALIFIED', 'CONVERTED')).toMatchObject({
      ok: false,
      error: { details: [{ field: 'status', issue: 'use_convert' }] },
    });
  });
});

describe('checkLeadConvertible', () => {
  it('needs an open status and an e-mail', () => {
    expect(checkLeadConvertible({ status: 'QUALIFIED', email: 'a@b.example' }).ok).toBe(true);
    const issue = (status: LeadStatus, email: string | null) => {
      const result = checkLeadConvertible({ status, email });
      return result.ok ? null : result.error.details?.[0];
    };
    expect(issue('CONVERTED', 'a@b.example')).toEqual({ field: 'status', issue: 'already_converted' });
    expect(issue('LOST', 'a@b.example')).toEqual({ field: 'status', issue: 'invalid_transition' });
    expect(issue('NEW', null)).toEqual({ field: 'email', issue: 'required' });
  });
});

it('an estimated value needs a currency; a currency alone is fine', () => {
  expect(checkEstimatedValue(100, null)?.details).toEqual([{ field: 'currency', issue: 'required' }]);
  expect(checkEstimatedValue(100, 'EUR')).toBeNull();
  expect(checkEstimatedValue(null, 'EUR')).toBeNull();
});

it('completedAt is set on entering DONE, kept while DONE, cleared on leaving it', () => {
  const now = new Date('2030-01-01T10:00:00.000Z');
  expect(taskCompletion(null, 'DONE', now)).toBe('2030-01-01T10:00:00.000Z');
  expect(taskCompletion({ status: 'OPEN', completedAt: null }, 'DONE', now)).toBe(now.toISOString());
  expect(taskCompletion({ status: 'DONE', completedAt: '2029-01-01T00:00:00.000Z' }, 'DONE', now)).toBe(
    '2029-01-01T00:00:00.000Z',
  );
  expect(taskCompletion({ status: 'DONE', completedAt: '2029-01-01T00:00:00.000Z' }, 'OPEN', now)).toBeNull();
});

it('every timeline entry type has a one-line summary', () => {
  const entry = (type: Parameters<typeof toTimelineEntry>[0]['type'], data: Record<string, unknown>) =>
    toTimelineEntry({ id: 'x', type, occurredAt: '2030-01-01T00:00:00.000Z', bookingId: null, data }).summary;
  expect(entry('booking.created', { participantCount: 2, totalAmount: 9000, currency: 'EUR' })).toBe(
    'Booked 2 seats for 90.00 EUR',
  );
  expect(
    entry('booking.status_changed', { fromStatus: 'PENDING', toStatus: 'CANCELLED', reason: 'EXPIRED' }),
  ).toBe('Booking PENDING -> CANCELLED (EXPIRED)');
  expect(entry('payment.succeeded', { amount: 100, currency: 'USD' })).toBe('Payment of 1.00 USD received');
  expect(entry('payment.refunded', { amount: 100, currency: 'USD' })).toBe('Refund of 1.00 USD');
  expect(entry('note', { body: `  many\n words ${'x'.repeat(200)}` })).toHaveLength(140);
  expect(entry('crm_task', { title: 'Call back', status: 'OPEN' })).toBe('Task: Call back (OPEN)');
});
