import { useQuery } from '@tanstack/react-query';
import { api, call } from '../api';
import { ErrorNotice, Loading } from '../components/feedback';
import { PageHeader } from '../components/page';
import { canWrite } from '../permissions';
import type { Tour } from '../queries';
import { useWorkspace } from '../workspace';
import { BookingFacts, History } from './booking/facts';
import { MoveBooking } from './booking/move';
import { Participants } from './booking/participants';
import { PaymentLink, Refund } from './booking/payments';
import { StatusChange } from './booking/status-change';
import { NEXT } from './booking/status-words';

/** One booking: what was bought, by whom, what happened to it, and what can be done. */
export function BookingPage({ bookingId }: { bookingId: string }) {
  const { workspaceId, role } = useWorkspace();
  const booking = useQuery({
    queryKey: [workspaceId, 'booking', bookingId],
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/bookings/{bookingId}', {
            params: { path: { workspaceId, bookingId } },
          }),
        )
      ).data,
  });
  const tour = useQuery({
    queryKey: [workspaceId, 'tour', booking.data?.tourId],
    enabled: !!booking.data,
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/tours/{tourId}', {
            params: { path: { workspaceId, tourId: booking.data?.tourId as string } },
          }),
        )
      ).data,
  });
  if (booking.isPending || (booking.data && tour.isPending)) return <Loading what="Loading the booking" />;
  if (booking.isError) return <ErrorNotice error={booking.error} />;
  if (tour.isError) return <ErrorNotice error={tour.error} />;
  const b = booking.data;
  const t = tour.data as Tour;
  const writable = canWrite(role, 'bookings');
  const open = b.status === 'PENDING' || b.status === 'CONFIRMED';
  return (
    <>
      <PageHeader title={`Booking of ${b.participants[0]?.name ?? b.id}`} />
      <BookingFacts booking={b} tour={t} />
      <Participants booking={b} tour={t} editable={writable && open} />
      {writable && (
        <>
          {NEXT[b.status].length > 0 && <StatusChange booking={b} />}
          {open && <PaymentLink booking={b} />}
          {b.amountPaid - b.amountRefunded > 0 && <Refund booking={b} />}
          {open && <MoveBooking booking={b} tour={t} />}
        </>
      )}
      <History bookingId={b.id} timeZone={t.timeZone} />
    </>
  );
}
