import { notFound, unprocessable } from '../shared/errors.js';
import type { Clock, UnitOfWork } from '../shared/ports.js';
import { fail, ok, type Result } from '../shared/result.js';
import { newPublicToken } from './booking-writes.js';
import type { BookingContext, BookingRecord, BookingStores } from './ports.js';

export interface BookingWriteDeps {
  uow: UnitOfWork<Pick<BookingStores, 'bookings'>>;
  clock: Clock;
}

/** Decisions §4: check-in of some or all participants of a CONFIRMED booking. */
export function checkInBooking(
  deps: BookingWriteDeps,
  ctx: BookingContext,
  bookingId: string,
  participantIds: readonly string[] | undefined,
): Promise<Result<BookingRecord>> {
  return deps.uow.transaction(async ({ stores }) => {
    const booking = await stores.bookings.lock(ctx.workspaceId, bookingId);
    if (!booking) return fail(notFound('booking'));
    if (booking.status !== 'CONFIRMED') {
      return fail(unprocessable('Only a CONFIRMED booking can check in.', 'status', 'invalid_state'));
    }
    const known = new Set(booking.participants.map((p) => p.id));
    const unknown = (participantIds ?? []).findIndex((id) => !known.has(id));
    if (unknown >= 0) {
      return fail(
        unprocessable(
          'No such participant on this booking.',
          `participantIds[${unknown}]`,
          'unknown_participant',
        ),
      );
    }
    const wanted = new Set(participantIds ?? known);
    const at = deps.clock.now().toISOString();
    const participants = booking.participants.map((p) =>
      wanted.has(p.id) && !p.checkedInAt ? { ...p, checkedInAt: at } : p,
    );
    return ok(await stores.bookings.update(ctx.workspaceId, booking.id, { participants }));
  });
}

/** Decisions §4: a new guest token; the old one stops working at once. */
export async function rotatePublicToken(deps: BookingWriteDeps, ctx: BookingContext, bookingId: string) {
  const booking = await deps.uow.stores.bookings.findById(ctx.workspaceId, bookingId);
  if (!booking) return fail(notFound('booking'));
  return ok(
    await deps.uow.stores.bookings.update(ctx.workspaceId, bookingId, { publicToken: newPublicToken() }),
  );
}
