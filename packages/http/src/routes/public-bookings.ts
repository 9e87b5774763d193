import {
  BookingCreateSchema,
  type BookingLinks,
  type BookingRecord,
  BookingSchema,
  cancelPublicBooking,
  createPublicBooking,
  GuestCancellationSchema,
  getPublicBooking,
  ok,
  type Result,
  retryPublicPayment,
  signWaiver,
  WaiverSchema,
} from '@travelops/domain';
import * as v from 'valibot';
import { defineRoute, type Reply } from '../route.js';
import { bookingReply } from './bookings.js';
import { PathId } from './params.js';

const tags = ['Public'];
const TokenParams = v.object({ publicToken: PathId });

/** A guest's link is a credential: never cached, never leaked through a Referer. */
const GUEST_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

function guestReply(result: Result<BookingRecord>, now: Date, links?: BookingLinks): Result<Reply> {
  return bookingReply(result, now, { headers: GUEST_HEADERS, ...(links && { links }) });
}

export const publicBookingRoutes = [
  defineRoute({
    operationId: 'createPublicBooking',
    method: 'post',
    path: '/public/{workspaceSlug}/bookings',
    summary: 'Book as a guest (booking widget)',
    description:
      'No credential. Published tours only; `paymentMode` CHECKOUT (default) or DEPOSIT (else 422). Answers the booking with `checkoutUrl`. 409 means the departure sold out: re-read availability and ask the traveller to choose again.',
    tags,
    access: 'public',
    params: v.object({ workspaceSlug: PathId }),
    body: BookingCreateSchema,
    idempotent: true,
    success: { status: 201, description: 'The booking, with `checkoutUrl`.', schema: BookingSchema },
    errors: [404, 409, 422],
    async handle({ use, params, body }) {
      const created = await createPublicBooking(use, params.workspaceSlug, body);
      return created.ok
        ? guestReply(ok(created.value.booking), use.clock.now(), created.value.links)
        : created;
    },
  }),
  defineRoute({
    operationId: 'getPublicBooking',
    method: 'get',
    path: '/public/bookings/{publicToken}',
    summary: 'View a booking by its guest token',
    description: 'No credential: the token is the access. Unknown tokens are 404.',
    tags,
    access: 'public',
    params: TokenParams,
    success: { status: 200, description: 'The booking.', schema: BookingSchema },
    errors: [404],
    async handle({ use, params }) {
      return guestReply(await getPublicBooking(use, params.publicToken), use.clock.now());
    },
  }),
  defineRoute({
    operationId: 'signPublicBookingWaiver',
    method: 'post',
    path: '/public/bookings/{publicToken}/waiver',
    summary: "Sign a participant's waiver",
    description: '`accepted` must be `true`. An unknown participant or a cancelled booking is 422.',
    tags,
    access: 'public',
    params: TokenParams,
    body: WaiverSchema,
    success: { status: 200, description: 'The booking with the waiver signed.', schema: BookingSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return guestReply(await signWaiver(use, params.publicToken, body), use.clock.now());
    },
  }),
  defineRoute({
    operationId: 'retryPublicBookingPayment',
    method: 'post',
    path: '/public/bookings/{publicToken}/payment/retry',
    summary: 'Get a fresh checkout for a pending booking',
    description:
      'Only a PENDING booking whose hold has not expired (else 422). Earlier checkout pages close.',
    tags,
    access: 'public',
    params: TokenParams,
    success: { status: 200, description: 'The booking with a new `checkoutUrl`.', schema: BookingSchema },
    errors: [404, 422],
    async handle({ use, params }) {
      const retried = await retryPublicPayment(use, params.publicToken);
      return retried.ok
        ? guestReply(ok(retried.value.booking), use.clock.now(), retried.value.links)
        : retried;
    },
  }),
  defineRoute({
    operationId: 'cancelPublicBooking',
    method: 'post',
    path: '/public/bookings/{publicToken}/cancel',
    summary: 'Cancel a booking as its guest',
    description:
      'No credential: the token is the access. Allowed for a PENDING or CONFIRMED booking (else 422 `invalid_state`) strictly before its `cancellationCutoffAt` (the departure\'s start less the `cutoffHours` of the cancellation policy the booking was made under; from then on 422 `cancellation_cutoff_passed` on `cancellationCutoffAt`: the operator can still cancel). The seats are released, the history records the guest, `booking.cancelled` is emitted, and the policy\'s refund is made through the payment provider and recorded as a REFUND payment (`payment.refunded`), all in one transaction: FULL returns everything paid and not yet refunded, PARTIAL `refundPercent` % of what was paid (rounded down to the minor unit, never more than is left), NONE nothing. The answer is the cancelled booking; `amountRefunded` and `paymentStatus` show the refund. Optional body: `{ "reason": "Flight cancelled" }`.',
    tags,
    access: 'public',
    params: TokenParams,
    body: v.optional(GuestCancellationSchema, {}),
    success: {
      status: 200,
      description: 'The cancelled booking, with the refund made.',
      schema: BookingSchema,
    },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return guestReply(await cancelPublicBooking(use, params.publicToken, body), use.clock.now());
    },
  }),
];
