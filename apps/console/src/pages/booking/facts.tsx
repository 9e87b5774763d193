/** What the booking is (its facts) and what happened to it (its history): read-only panels. */
import { useQuery } from '@tanstack/react-query';
import { api, call, collect } from '../../api';
import { Badge } from '../../components/badges';
import { ErrorNotice, Loading } from '../../components/feedback';
import { Section } from '../../components/page';
import { formatDateTime, formatMoney } from '../../format';
import type { Booking, Tour } from '../../queries';
import { Link } from '../../router';
import { useWorkspace } from '../../workspace';
import { words } from './status-words';

/** Status, departure, customer, amounts, and the notes and references the booking carries. */
export function BookingFacts({ booking: b, tour }: { booking: Booking; tour: Tour }) {
  const { workspaceId } = useWorkspace();
  const customer = useQuery({
    queryKey: [workspaceId, 'customer', b.customerId],
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/customers/{customerId}', {
            params: { path: { workspaceId, customerId: b.customerId } },
          }),
        )
      ).data,
  });
  const money = (minor: number) => formatMoney(minor, b.currency);
  return (
    <dl className="facts">
      <div>
        <dt>Status</dt>
        <dd>
          <Badge value={b.status} /> <Badge value={b.paymentStatus} label="Payment" />
        </dd>
      </div>
      <div>
        <dt>Departure</dt>
        <dd>
          <Link to={`/${workspaceId}/departures/${b.availabilityId}`}>
            {tour.name}, {formatDateTime(b.startsAt, tour.timeZone, { zone: true })}
          </Link>
        </dd>
      </div>
      <div>
        <dt>Customer</dt>
        <dd>
          <Link to={`/${workspaceId}/customers/${b.customerId}`}>
            {customer.data?.name ?? 'The customer'}
          </Link>
          {customer.data && <span className="muted small"> · {customer.data.email}</span>}
        </dd>
      </div>
      <div>
        <dt>Amount</dt>
        <dd>
          {money(b.totalAmount)} · paid {money(b.amountPaid)}
          {b.amountRefunded > 0 && ` · refunded ${money(b.amountRefunded)}`}
        </dd>
      </div>
      <div>
        <dt>Paid by</dt>
        <dd>{words(b.paymentMode)}</dd>
      </div>
      {b.expiresAt && (
        <div>
          <dt>Hold ends</dt>
          <dd>{formatDateTime(b.expiresAt, tour.timeZone)}</dd>
        </div>
      )}
      {b.externalReference && (
        <div>
          <dt>Partner reference</dt>
          <dd>{b.externalReference}</dd>
        </div>
      )}
      {b.notes && (
        <div>
          <dt>Internal notes</dt>
          <dd>{b.notes}</dd>
        </div>
      )}
      {b.guestMessage && (
        <div>
          <dt>Guest's message</dt>
          <dd>{b.guestMessage}</dd>
        </div>
      )}
      {b.cancellationReason && (
        <div>
          <dt>Cancelled because</dt>
          <dd>{b.cancellationReason}</dd>
        </div>
      )}
    </dl>
  );
}

/** Every status change, oldest first, with its reason and who made it. */
export function History({ bookingId, timeZone }: { bookingId: string; timeZone: string }) {
  const { workspaceId } = useWorkspace();
  const history = useQuery({
    queryKey: [workspaceId, 'history', bookingId],
    queryFn: () =>
      collect(async (cursor) =>
        call(
          api.GET('/workspaces/{workspaceId}/bookings/{bookingId}/history', {
            params: { path: { workspaceId, bookingId }, query: { limit: 100, ...(cursor && { cursor }) } },
          }),
        ),
      ),
  });
  return (
    <Section title="History">
      {history.isPending ? (
        <Loading what="Loading the history" />
      ) : history.isError ? (
        <ErrorNotice error={history.error} />
      ) : (
        <ol className="timeline">
          {history.data.map((h) => (
            <li key={h.id}>
              <time dateTime={h.createdAt}>{formatDateTime(h.createdAt, timeZone)}</time>{' '}
              {h.fromStatus
                ? `${words(h.fromStatus)} → ${words(h.toStatus)}`
                : `Created as ${words(h.toStatus)}`}
              {h.reason && ` · ${h.reason}`}{' '}
              <span className="muted small">by {h.actor.type.replace('_', ' ')}</span>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
