import {
  type BookingLinks,
  type BookingRecord,
  GuestCancellationSchema,
  PublicBookingCreateSchema,
  WaiverSchema,
} from '@travelops/domain/bookings';
import {
  cancelPublicBooking,
  createPublicBooking,
  getPublicBooking,
  PublicBookingSchema,
  payPublicBalance,
  retryPublicPayment,
  signWaiver,
  viewForGuest,
} from '@travelops/domain/guests';
import { ok, type Result } from '@travelops/domain/shared';
import * as v from 'valibot';
import type { UseCaseDeps } from '../deps.js';
import { clientTag } from '../rate-limit.js';
import { defineRoute, type Reply } from '../route.js';
import { PathId } from './params.js';

const tags = ['Public'];
const TokenParams = v.object({ publicToken: PathId });

/** A guest's link is a credential: never cached, never leaked through a Referer. */
const GUEST_HEADERS = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };

/** The guest's view of the booking (never the operator's), with the guest headers. */
async function guestReply(
  use: UseCaseDeps,
  result: Result<BookingRecord>,
  links?: BookingLinks,
): Promise<Result<Reply>> {
  if (!result.ok) return result;
  return ok({ data: await viewForGuest(use, result.value, links), headers: GUEST_HEADERS });
}

/** Unpaid public holds (and free bookings) one client may have on one departure at once, unless configured. */
const DEFAULT_PUBLIC_HOLDS_PER_CLIENT = 2;
/** Confirmation e-mails of free public bookings to one address per workspace and hour, unless configured. */
const DEFAULT_PUBLIC_CONFIRMATIONS_PER_ADDRESS_PER_HOUR = 5;

export const publicBookingRoutes = [
  defineRoute({
    operationId: 'createPublicBooking',
    method: 'post',
    path: '/public/{workspaceSlug}/bookings',
    summary: 'Book as a guest (booking widget)',
    description:
      "No credential. Published tours only; `paymentMode` CHECKOUT (default) or DEPOSIT (else 422). Answers the booking with `checkoutUrl`. 409 means the departure sold out: re-read availability and ask the traveller to choose again. Guests cannot hoard seats: at most the tour's `maxSeatsPerPublicBooking` participants (422 `too_many_for_public_booking` on `participants`), an unpaid hold lasts the tour's `publicHoldMinutes` (default 15), and one client (IP) holds at most 2 unpaid or free bookings per departure at once (429 with `Retry-After` until the earliest hold lapses; a free booking, CONFIRMED at once, counts for as long as it stands; `PUBLIC_HOLDS_PER_CLIENT`). A free booking's confirmation e-mail goes to one address at most 5 times per workspace and hour (`PUBLIC_CONFIRMATIONS_PER_ADDRESS_PER_HOUR`); past it the booking stands and no e-mail is sent. An `Idempotency-Key` here is scoped to the workspace and the client address (as `TRUST_PROXY` decides it): a replay answers the same client only, and the same key from another address is a new request. The body is the spec's BookingCreate and nothing more: a field the product added for operators or partners (`externalReference`) is 400 `VALIDATION_ERROR` with `unknown_field` on it. `notes` are the guest's message to the operator (at most 1 000 characters), kept as the booking's `guestMessage` and never as its internal `notes`.",
    tags,
    access: 'public',
    params: v.object({ workspaceSlug: PathId }),
    body: PublicBookingCreateSchema,
    idempotent: true,
    success: { status: 201, description: 'The booking, with `checkoutUrl`.', schema: PublicBookingSchema },
    errors: [404, 409, 422, 429],
    async handle({ use, deps, params, body, req }) {
      const holder = {
        // Who holds a guest's booking: a keyed hash of the client address (no address is stored).
        key: clientTag(deps.csrfSecret, 'hold', req.ip),
        maxLiveHolds: deps.config.publicHoldsPerClient ?? DEFAULT_PUBLIC_HOLDS_PER_CLIENT,
      };
      const perHour =
        deps.config.publicConfirmationsPerAddressPerHour ?? DEFAULT_PUBLIC_CONFIRMATIONS_PER_ADDRESS_PER_HOUR;
      const created = await createPublicBooking(use, params.workspaceSlug, body, holder, perHour);
      if (created.ok && created.value.confirmationWithheld) {
        deps.logger.warn(
          { requestId: req.res?.locals.requestId, bookingId: created.value.booking.id },
          'confirmation e-mail withheld: PUBLIC_CONFIRMATIONS_PER_ADDRESS_PER_HOUR reached for this address',
        );
      }
      return created.ok ? guestReply(use, ok(created.value.booking), created.value.links) : created;
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
    success: { status: 200, description: 'The booking.', schema: PublicBookingSchema },
    errors: [404],
    async handle({ use, params }) {
      return guestReply(use, await getPublicBooking(use, params.publicToken));
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
    success: { status: 200, description: 'The booking with the waiver signed.', schema: PublicBookingSchema },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return guestReply(use, await signWaiver(use, params.publicToken, body));
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
    success: {
      status: 200,
      description: 'The booking with a new `checkoutUrl`.',
      schema: PublicBookingSchema,
    },
    errors: [404, 422],
    async handle({ use, params }) {
      const retried = await retryPublicPayment(use, params.publicToken);
      return retried.ok ? guestReply(use, ok(retried.value.booking), retried.value.links) : retried;
    },
  }),
  defineRoute({
    operationId: 'payPublicBookingBalance',
    method: 'post',
    path: '/public/bookings/{publicToken}/payment/balance',
    summary: 'Get a checkout for the balance of a confirmed booking',
    description:
      'No credential: the token is the access. For a CONFIRMED booking with something outstanding (a deposit was paid): a checkout for the balance (total less paid), open for 30 minutes; earlier checkout pages close. A PENDING booking retries its payment instead (`payment/retry`). Anything else is 422 `invalid_state` on `status`; nothing left to pay is 422 `nothing_outstanding` on `amount`.',
    tags,
    access: 'public',
    params: TokenParams,
    success: {
      status: 200,
      description: 'The booking with a `checkoutUrl` for the balance.',
      schema: PublicBookingSchema,
    },
    errors: [404, 422],
    async handle({ use, params }) {
      const opened = await payPublicBalance(use, params.publicToken);
      return opened.ok ? guestReply(use, ok(opened.value.booking), opened.value.links) : opened;
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
      schema: PublicBookingSchema,
    },
    errors: [404, 422],
    async handle({ use, params, body }) {
      return guestReply(use, await cancelPublicBooking(use, params.publicToken, body));
    },
  }),
];
