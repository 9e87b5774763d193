import {
  BookingCreateSchema,
  BookingHistoryEntrySchema,
  type BookingLinks,
  type BookingRecord,
  BookingSchema,
  CheckInSchema,
  checkInBooking,
  createBooking,
  extendHold,
  getBooking,
  HoldExtensionSchema,
  ListBookingsQuerySchema,
  listBookingChanges,
  listBookingHistory,
  listBookings,
  PaymentLinkSchema,
  RefundCreateSchema,
  rotatePublicToken,
  SetBookingStatusSchema,
  setBookingStatus,
  toBookingView,
  UpdateBookingSchema,
  updateBooking,
} from '@travelops/domain/bookings';
import { createPaymentLink, refundBooking } from '@travelops/domain/payments';
import { ok, type Page, PageQuerySchema, type Result } from '@travelops/domain/shared';
import * as v from 'valibot';
import { badRequest } from '../errors.js';
import { defineRoute, type Reply } from '../route.js';
import { PathId, WorkspaceParams } from './params.js';

const tags = ['Bookings'];
/** A change-feed cursor continues the feed only, never a sorted list (and the reverse). */
const CHANGES_SCOPE = 'updatedSince';
const BookingParams = v.object({ workspaceId: PathId, bookingId: PathId });

/** The booking as the API shows it, with its version as a strong ETag. */
function bookingReply(
  result: Result<BookingRecord>,
  now: Date,
  options: { status?: number; links?: BookingLinks; headers?: Record<string, string> } = {},
): Result<Reply> {
  if (!result.ok) return result;
  return ok({
    ...(options.status !== undefined && { status: options.status }),
    data: toBookingView(result.value, now, options.links),
    headers: { ETag: `"${result.value.version}"`, ...options.headers },
  });
}

/** `If-Match: "7"` -> 7; absent or `*` -> undefined; anything else can never match. */
function ifMatchVersion(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  if (!match)
    throw badRequest('If-Match takes an ETag from a previous response.', 'If-Match', 'invalid_etag');
  return Number(match[1]);
}

export const bookingRoutes = [
  defineRoute({
    operationId: 'listBookings',
    method: 'get',
    path: '/workspaces/{workspaceId}/bookings',
    summary: 'List bookings',
    description: [
      'Sort by `createdAt` (default `-createdAt`), `startsAt`, `totalAmount` or `updatedAt`; a leading `-` sorts descending. `from`/`to` are inclusive UTC dates of the departure start. `externalReference` matches exactly. Keyset pagination: deep pages cost what the first does.',
      '',
      '**Partner sync.** With `updatedSince`, the list is a change feed: bookings whose `updatedAt` is at or after it, oldest change first (`updatedAt`, then `id`). `sort` must then be omitted or `updatedAt` (else 400 `conflicts_with_updated_since`). `nextCursor` is set on every page, the last one included: keep it and poll again later with the same query and that cursor to receive only what changed since, in order. The feed lists a change once the transaction that made it, and every transaction that started before it, has finished (so it runs about a second behind real time): a cursor never skips a change that committed late and never repeats one. A booking changed again shows again, with its new `updatedAt`. Example: `GET /workspaces/{id}/bookings?updatedSince=2026-05-01T00:00:00Z&limit=100`, then `...&cursor=<nextCursor>` until `hasMore` is false; store the last `nextCursor` for the next poll.',
    ].join('\n'),
    tags,
    access: { permission: 'read' },
    params: WorkspaceParams,
    query: ListBookingsQuerySchema,
    success: { status: 200, description: 'A page of bookings.', schema: BookingSchema, list: 'paginated' },
    errors: [],
    async handle({ use, params, query, pageRequest, pageReply }) {
      const { from, to, status, paymentStatus, externalReference, updatedSince } = query;
      const filter = {
        ...(from && { from }),
        ...(to && { to }),
        ...(status && { status }),
        ...(paymentStatus && { paymentStatus }),
        ...(externalReference && { externalReference }),
      };
      const now = use.clock.now();
      const view = (page: Page<BookingRecord>) => ({
        ...page,
        items: page.items.map((b) => toBookingView(b, now)),
      });
      if (updatedSince !== undefined) {
        const changes = await listBookingChanges(
          use,
          params.workspaceId,
          filter,
          { updatedSince, sort: query.sort },
          pageRequest(CHANGES_SCOPE),
        );
        return changes.ok ? ok(pageReply(view(changes.value), CHANGES_SCOPE)) : changes;
      }
      const sort = query.sort ?? '-createdAt';
      // The sort is part of the cursor's scope: a cursor continues the order it came from.
      const page = await listBookings(use, params.workspaceId, filter, sort, pageRequest(sort));
      return ok(pageReply(view(page), sort));
    },
  }),
  defineRoute({
    operationId: 'createBooking',
    method: 'post',
    path: '/workspaces/{workspaceId}/bookings',
    summary: 'Book seats on a departure',
    description:
      'Reserves seats atomically: with N concurrent requests for the last K seats exactly K succeed and the rest get 409 `insufficient_seats`; more participants than the departure could ever hold is 400 `max_capacity_exceeded`; a departure that is not bookable is 422. The customer is found by e-mail in the workspace, or created. `paymentMode` sets the hold: CHECKOUT and DEPOSIT 30 min (`checkoutUrl`), PAYMENT_LINK 24 h (`paymentLinkUrl`), MANUAL none.',
    tags,
    access: { permission: 'bookings:write' },
    params: WorkspaceParams,
    body: BookingCreateSchema,
    idempotent: true,
    success: {
      status: 201,
      description: 'The booking, PENDING until paid or confirmed.',
      schema: BookingSchema,
    },
    errors: [409, 422],
    async handle({ use, params, body, actor }) {
      const created = await createBooking(use, { workspaceId: params.workspaceId, actor }, body);
      if (!created.ok) return created;
      return bookingReply(ok(created.value.booking), use.clock.now(), { links: created.value.links });
    },
  }),
  defineRoute({
    operationId: 'getBooking',
    method: 'get',
    path: '/workspaces/{workspaceId}/bookings/{bookingId}',
    summary: 'Get a booking',
    description: 'The `ETag` header is the booking version, for `If-Match` on PATCH.',
    tags,
    access: { permission: 'read' },
    params: BookingParams,
    success: { status: 200, description: 'The booking.', schema: BookingSchema },
    errors: [404],
    async handle({ use, params }) {
      return bookingReply(await getBooking(use, params.workspaceId, params.bookingId), use.clock.now());
    },
  }),
  defineRoute({
    operationId: 'updateBooking',
    method: 'patch',
    path: '/workspaces/{workspaceId}/bookings/{bookingId}',
    summary: 'Change a booking',
    description:
      'Only PENDING or CONFIRMED bookings (else 422). Changing `availabilityId` (a departure of the same tour) or the number of participants moves seats atomically (409 when the target lacks seats). New `participants` replace the list (waivers and check-ins restart). Without `totalAmount` the price follows the participants. A stale `If-Match` is 409. A move or new participants e-mail the guest the booking as it now stands (with an updated `.ics`) unless `notifyCustomer` is false.',
    tags,
    access: { permission: 'bookings:write' },
    params: BookingParams,
    body: UpdateBookingSchema,
    success: { status: 200, description: 'The changed booking.', schema: BookingSchema },
    errors: [404, 409, 422],
    async handle({ use, params, body, actor, req }) {
      const version = ifMatchVersion(req.get('If-Match'));
      const ctx = { workspaceId: params.workspaceId, actor };
      return bookingReply(await updateBooking(use, ctx, params.bookingId, body, version), use.clock.now());
    },
  }),
  defineRoute({
    operationId: 'setBookingStatus',
    method: 'post',
    path: '/workspaces/{workspaceId}/bookings/{bookingId}/status',
    summary: 'Move a booking to another status',
    description:
      'PENDING -> CONFIRMED or CANCELLED; CONFIRMED -> CANCELLED before the departure starts; CONFIRMED -> COMPLETED or NO_SHOW once it has started. Anything else is 422 (`invalid_transition`, `departure_started`, `departure_not_started`). Cancelling releases the seats. `reason` is kept in the history; `notifyCustomer: true` e-mails the guest (the confirmation, the cancellation with its refund, or a note on COMPLETED and NO_SHOW); false, the default, sends nothing.\n\nOperators are not bound by the guest cancellation policy (`cancellationCutoffAt`): they may cancel at any time the state machine allows, and choose the refund with `refundAmount` (minor units, at most paid minus refunded, else 422 `exceeds_refundable`; default none, as without it). The refund goes through the payment provider, is recorded as a REFUND payment and emits `payment.refunded` after `booking.cancelled`, in the same transaction as the cancel; `amountRefunded` and `paymentStatus` show it. `refundAmount` with another status is 400 `requires_cancelled`. Example: `{ "status": "CANCELLED", "reason": "Storm warning", "refundAmount": 12500 }`.',
    tags,
    access: { permission: 'bookings:write' },
    params: BookingParams,
    body: SetBookingStatusSchema,
    success: { status: 200, description: 'The booking in its new status.', schema: BookingSchema },
    errors: [404, 422],
    async handle({ use, params, body, actor }) {
      const ctx = { workspaceId: params.workspaceId, actor };
      return bookingReply(await setBookingStatus(use, ctx, params.bookingId, body), use.clock.now());
    },
  }),
  defineRoute({
    operationId: 'extendBookingHold',
    method: 'post',
    path: '/workspaces/{workspaceId}/bookings/{bookingId}/extend',
    summary: "Extend a pending booking's hold",
    description:
      'Gives a PENDING booking `minutes` (1-60) more to be paid: the new `expiresAt` is `expiresAt + minutes`, but never more than 60 minutes past now and never earlier than it was (a hold already reaching further, such as a 24 h payment link, stays as it is and the answer shows it unchanged). Open checkout and payment-link pages expire with the hold. 422 `hold_expired` (field `expiresAt`) once the hold has run out, `no_hold` for a booking that holds without expiry (MANUAL), `invalid_state` (field `status`) when it is no longer PENDING. An extend racing the hold-expiry job is serialised with it: exactly one wins. Emits `booking.updated`. Example: `{ "minutes": 15 }`.',
    tags,
    access: { permission: 'bookings:write' },
    params: BookingParams,
    body: HoldExtensionSchema,
    success: { status: 200, description: 'The booking with its new `expiresAt`.', schema: BookingSchema },
    errors: [404, 422],
    async handle({ use, params, body, actor }) {
      const ctx = { workspaceId: params.workspaceId, actor };
      return bookingReply(await extendHold(use, ctx, params.bookingId, body.minutes), use.clock.now());
    },
  }),
  defineRoute({
    operationId: 'createPaymentLink',
    method: 'post',
    path: '/workspaces/{workspaceId}/bookings/{bookingId}/payment-link',
    summary: 'Create a payment link for the outstanding balance',
    description:
      'For total minus paid; valid 24 h (never beyond a pending hold). 422 when nothing is outstanding, the booking is CANCELLED, COMPLETED or NO_SHOW, or its hold has expired.',
    tags,
    access: { permission: 'bookings:write' },
    params: BookingParams,
    success: { status: 201, description: 'The link.', schema: PaymentLinkSchema },
    errors: [404, 422],
    async handle({ use, params, actor }) {
      const link = await createPaymentLink(use, { workspaceId: params.workspaceId, actor }, params.bookingId);
      return link.ok ? ok({ data: link.value }) : link;
    },
  }),
  defineRoute({
    operationId: 'checkInBooking',
    method: 'post',
    path: '/workspaces/{workspaceId}/bookings/{bookingId}/checkin',
    summary: 'Check participants in',
    description:
      'CONFIRMED bookings only (else 422). `participantIds` defaults to everyone; an unknown id is 422.',
    tags,
    access: { permission: 'checkin:write' },
    params: BookingParams,
    body: v.optional(CheckInSchema, {}),
    success: { status: 200, description: 'The booking with check-in times.', schema: BookingSchema },
    errors: [404, 422],
    async handle({ use, params, body, actor }) {
      const ctx = { workspaceId: params.workspaceId, actor };
      return bookingReply(
        await checkInBooking(use, ctx, params.bookingId, body.participantIds),
        use.clock.now(),
      );
    },
  }),
  defineRoute({
    operationId: 'rotateBookingPublicToken',
    method: 'post',
    path: '/workspaces/{workspaceId}/bookings/{bookingId}/public-token',
    summary: "Replace the booking's guest token",
    description: 'The old `publicToken` answers 404 at once.',
    tags,
    access: { permission: 'bookings:write' },
    params: BookingParams,
    success: { status: 200, description: 'The booking with its new token.', schema: BookingSchema },
    errors: [404],
    async handle({ use, params, actor }) {
      return bookingReply(
        await rotatePublicToken(use, { workspaceId: params.workspaceId, actor }, params.bookingId),
        use.clock.now(),
      );
    },
  }),
  defineRoute({
    operationId: 'createBookingRefund',
    method: 'post',
    path: '/workspaces/{workspaceId}/bookings/{bookingId}/refunds',
    summary: 'Refund part or all of what was paid',
    description:
      '`amount` defaults to everything refundable (paid minus refunded); more is 422 `exceeds_refundable`. paymentStatus becomes PARTIALLY_REFUNDED or REFUNDED.',
    tags,
    access: { permission: 'bookings:write' },
    params: BookingParams,
    body: v.optional(RefundCreateSchema, {}),
    idempotent: true,
    success: { status: 201, description: 'The booking after the refund.', schema: BookingSchema },
    errors: [404, 422],
    async handle({ use, params, body, actor }) {
      const ctx = { workspaceId: params.workspaceId, actor };
      return bookingReply(await refundBooking(use, ctx, params.bookingId, body), use.clock.now(), {
        status: 201,
      });
    },
  }),
  defineRoute({
    operationId: 'listBookingHistory',
    method: 'get',
    path: '/workspaces/{workspaceId}/bookings/{bookingId}/history',
    summary: "A booking's status history, oldest first",
    description: 'Every status change: from, to, when, who (token, member, guest or system) and why.',
    tags,
    access: { permission: 'read' },
    params: BookingParams,
    query: PageQuerySchema,
    success: {
      status: 200,
      description: 'A page of history entries.',
      schema: BookingHistoryEntrySchema,
      list: 'paginated',
    },
    errors: [404],
    async handle({ use, params, pageRequest, pageReply }) {
      const page = await listBookingHistory(
        use,
        params.workspaceId,
        params.bookingId,
        pageRequest(params.bookingId),
      );
      return page.ok ? ok(pageReply(page.value, params.bookingId)) : page;
    },
  }),
];
