import { type DomainError, unprocessable, validationError } from '../shared/errors.js';
import { formatMoney } from '../shared/money.js';
import { fail, ok, type Result } from '../shared/result.js';
import type { TimelineRecord } from './ports.js';
import type { CrmTask, LeadStatus, TimelineEntry, TimelineEntryType } from './schemas.js';

/**
 * Where a lead may go by PATCH. CONVERTED is reached only by the convert operation (it
 * creates or links the customer) and is final; a LOST lead can be reopened as NEW.
 */
const LEAD_TRANSITIONS: Readonly<Record<LeadStatus, readonly LeadStatus[]>> = {
  NEW: ['CONTACTED', 'QUALIFIED', 'LOST'],
  CONTACTED: ['QUALIFIED', 'LOST'],
  QUALIFIED: ['CONTACTED', 'LOST'],
  LOST: ['NEW'],
  CONVERTED: [],
};

/** A lead's status change by PATCH; the same status is a no-op. */
export function decideLeadStatus(from: LeadStatus, to: LeadStatus): Result<LeadStatus> {
  if (from === to) return ok(to);
  if (to === 'CONVERTED') {
    return fail(
      unprocessable('Convert a lead with POST .../leads/{leadId}/convert.', 'status', 'use_convert'),
    );
  }
  if (!LEAD_TRANSITIONS[from].includes(to)) {
    return fail(unprocessable(`A ${from} lead cannot become ${to}.`, 'status', 'invalid_transition'));
  }
  return ok(to);
}

/** Whether a lead can be converted now: CONVERTED once, never from LOST, and an e-mail is needed. */
export function checkLeadConvertible(lead: { status: LeadStatus; email: string | null }): Result<true> {
  if (lead.status === 'CONVERTED') {
    return fail(unprocessable('The lead is already converted.', 'status', 'already_converted'));
  }
  if (lead.status === 'LOST') {
    return fail(unprocessable('Reopen a LOST lead before converting it.', 'status', 'invalid_transition'));
  }
  if (!lead.email) {
    return fail(unprocessable('A lead needs an e-mail to become a customer.', 'email', 'required'));
  }
  return ok(true);
}

/** An estimated value needs its currency (a currency alone is fine). */
export function checkEstimatedValue(value: number | null, currency: string | null): DomainError | null {
  return value !== null && currency === null
    ? validationError('The request is invalid.', [{ field: 'currency', issue: 'required' }])
    : null;
}

/** `completedAt` follows the status: set when a task becomes DONE, cleared when it leaves DONE. */
export function taskCompletion(
  current: Pick<CrmTask, 'status' | 'completedAt'> | null,
  status: CrmTask['status'],
  now: Date,
): string | null {
  if (status !== 'DONE') return null;
  return current?.status === 'DONE' ? current.completedAt : now.toISOString();
}

const str = (value: unknown) => (typeof value === 'string' ? value : '');
const num = (value: unknown) => (typeof value === 'number' ? value : 0);

/** One line per entry type; a new timeline source adds its type here and a branch in the store. */
const SUMMARIES: Readonly<Record<TimelineEntryType, (data: Record<string, unknown>) => string>> = {
  'booking.created': (d) =>
    `Booked ${num(d.participantCount)} seat${num(d.participantCount) === 1 ? '' : 's'} for ${formatMoney(num(d.totalAmount), str(d.currency))}`,
  'booking.status_changed': (d) =>
    `Booking ${str(d.fromStatus)} -> ${str(d.toStatus)}${d.reason ? ` (${str(d.reason)})` : ''}`,
  'payment.succeeded': (d) => `Payment of ${formatMoney(num(d.amount), str(d.currency))} received`,
  'payment.refunded': (d) => `Refund of ${formatMoney(num(d.amount), str(d.currency))}`,
  note: (d) => {
    const body = str(d.body).replace(/\s+/g, ' ').trim();
    return body.length > 140 ? `${body.slice(0, 139)}…` : body;
  },
  crm_task: (d) => `Task: ${str(d.title)} (${str(d.status)})`,
  incident: (d) => `Incident (${str(d.severity)}): ${str(d.title)}`,
};

export function toTimelineEntry(record: TimelineRecord): TimelineEntry {
  return {
    id: record.id,
    type: record.type,
    occurredAt: record.occurredAt,
    summary: SUMMARIES[record.type](record.data),
    bookingId: record.bookingId,
    data: record.data,
  };
}
