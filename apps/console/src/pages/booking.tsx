import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, collect, idempotencyKey, type Schemas } from '../api';
import { Badge } from '../components/badges';
import { Empty, ErrorNotice, Loading, Success } from '../components/feedback';
import { SelectField, TextField } from '../components/field';
import { PageHeader, Section } from '../components/page';
import { addDays, formatDateTime, formatMoney, moneyInput, parseMoney } from '../format';
import { canWrite } from '../permissions';
import { type Booking, type Tour, useDepartures } from '../queries';
import { Link } from '../router';
import { useWorkspace } from '../workspace';

type Status = Booking['status'];
/** Decisions §2: where each status may go (the server checks it again, with the clock). */
const NEXT: Record<Status, Status[]> = {
  PENDING: ['CONFIRMED', 'CANCELLED'],
  CONFIRMED: ['CANCELLED', 'COMPLETED', 'NO_SHOW'],
  CANCELLED: [],
  COMPLETED: [],
  NO_SHOW: [],
};
const words = (value: string) => value.charAt(0) + value.slice(1).toLowerCase().replaceAll('_', ' ');

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

function BookingFacts({ booking: b, tour }: { booking: Booking; tour: Tour }) {
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
          <dt>Notes</dt>
          <dd>{b.notes}</dd>
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

/** Saves a changed booking: the answer replaces it, and the lists that show it reload. */
function useBookingChange<T, R>(booking: Booking, send: (input: T) => Promise<R>) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'booking', booking.id] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'history', booking.id] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'bookings'] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'manifest'] });
    },
  });
}

type Row = { key: string; name: string; ticketTypeId: string };

function Participants({ booking: b, tour, editable }: { booking: Booking; tour: Tour; editable: boolean }) {
  const { workspaceId } = useWorkspace();
  const [editing, setEditing] = useState(false);
  const [rows, setRows] = useState<Row[]>([]);
  const typeName = (id: string | null) => tour.ticketTypes.find((t) => t.id === id)?.name ?? 'Standard';
  const save = useBookingChange(b, async (participants: Schemas['ParticipantInput'][]) =>
    call(
      api.PATCH('/workspaces/{workspaceId}/bookings/{bookingId}', {
        params: { path: { workspaceId, bookingId: b.id } },
        body: { participants },
      }),
    ),
  );
  const start = () => {
    setRows(b.participants.map((p) => ({ key: p.id, name: p.name, ticketTypeId: p.ticketTypeId ?? '' })));
    save.reset();
    setEditing(true);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(
      rows.map((r) => ({ name: r.name, ...(r.ticketTypeId && { ticketTypeId: r.ticketTypeId }) })),
      { onSuccess: () => setEditing(false) },
    );
  };
  return (
    <Section
      title="Participants"
      actions={
        editable && !editing ? (
          <button type="button" onClick={start}>
            Edit participants
          </button>
        ) : undefined
      }
    >
      {save.isSuccess && <Success>Participants saved; the price follows them.</Success>}
      {!editing ? (
        <ul className="list">
          {b.participants.map((p) => (
            <li key={p.id}>
              {p.name} · {typeName(p.ticketTypeId)} · {formatMoney(p.price, b.currency)}
              {p.checkedInAt && <span className="checked-in"> · checked in</span>}
            </li>
          ))}
        </ul>
      ) : (
        <form onSubmit={submit} className="form" aria-label="Participants">
          <ErrorNotice error={save.error} />
          <p className="hint">Saving replaces the list: waivers and check-ins start again.</p>
          {rows.map((r, i) => (
            <fieldset key={r.key} className="ticket-row">
              <legend className="visually-hidden">Participant {i + 1}</legend>
              <TextField
                label="Name"
                required
                value={r.name}
                onChange={(e) =>
                  setRows((all) => all.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
                }
                field={`participants[${i}].name`}
                error={save.error}
              />
              {tour.ticketTypes.length > 0 && (
                <SelectField
                  label="Ticket type"
                  options={tour.ticketTypes.map(
                    (t) => [t.id, `${t.name} (${formatMoney(t.price, tour.currency)})`] as const,
                  )}
                  value={r.ticketTypeId || (tour.ticketTypes[0]?.id ?? '')}
                  onChange={(e) =>
                    setRows((all) =>
                      all.map((x, j) => (j === i ? { ...x, ticketTypeId: e.target.value } : x)),
                    )
                  }
                  field={`participants[${i}].ticketTypeId`}
                  error={save.error}
                />
              )}
              <button
                type="button"
                className="button-quiet"
                disabled={rows.length === 1}
                onClick={() => setRows((all) => all.filter((_, j) => j !== i))}
              >
                Remove <span className="visually-hidden">participant {i + 1}</span>
              </button>
            </fieldset>
          ))}
          <p className="button-row">
            <button
              type="button"
              onClick={() =>
                setRows((all) => [
                  ...all,
                  { key: crypto.randomUUID(), name: '', ticketTypeId: tour.ticketTypes[0]?.id ?? '' },
                ])
              }
            >
              Add participant
            </button>
            <button type="submit" className="button-primary" disabled={save.isPending}>
              Save participants
            </button>
            <button type="button" className="button-quiet" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </p>
        </form>
      )}
    </Section>
  );
}

function StatusChange({ booking: b }: { booking: Booking }) {
  const { workspaceId } = useWorkspace();
  const choices = NEXT[b.status];
  const [status, setStatus] = useState<Status>(choices[0] as Status);
  const [reason, setReason] = useState('');
  const [notify, setNotify] = useState(false);
  const [refund, setRefund] = useState('');
  const refundable = b.amountPaid - b.amountRefunded;
  const change = useBookingChange(b, async (body: Schemas['BookingStatusChange']) =>
    call(
      api.POST('/workspaces/{workspaceId}/bookings/{bookingId}/status', {
        params: { path: { workspaceId, bookingId: b.id } },
        body,
      }),
    ),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const refundAmount = status === 'CANCELLED' && refund ? parseMoney(refund, b.currency) : null;
    change.mutate({
      status,
      ...(reason && { reason }),
      notifyCustomer: notify,
      ...(refundAmount !== null && { refundAmount }),
    });
  };
  return (
    <Section title="Change status">
      <form onSubmit={submit} className="form" aria-label="Change status">
        {change.isSuccess && <Success>Status changed.</Success>}
        <ErrorNotice error={change.error} />
        <div className="grid">
          <SelectField
            label="New status"
            options={choices.map((s) => [s, words(s)] as const)}
            value={status}
            onChange={(e) => setStatus(e.target.value as Status)}
            field="status"
            error={change.error}
          />
          <TextField
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            field="reason"
            error={change.error}
          />
          {status === 'CANCELLED' && refundable > 0 && (
            <TextField
              label={`Refund now (${b.currency})`}
              hint={`Up to ${formatMoney(refundable, b.currency)}; empty: none.`}
              inputMode="decimal"
              value={refund}
              onChange={(e) => setRefund(e.target.value)}
              field="refundAmount"
              error={change.error}
            />
          )}
        </div>
        <div className="check">
          <input
            id="notify-customer"
            type="checkbox"
            checked={notify}
            onChange={(e) => setNotify(e.target.checked)}
          />
          <label htmlFor="notify-customer">E-mail the customer about it</label>
        </div>
        <button type="submit" className="button-primary" disabled={change.isPending}>
          Change status
        </button>
      </form>
    </Section>
  );
}

function PaymentLink({ booking: b }: { booking: Booking }) {
  const { workspaceId } = useWorkspace();
  const link = useBookingChange(
    b,
    async () =>
      (
        await call(
          api.POST('/workspaces/{workspaceId}/bookings/{bookingId}/payment-link', {
            params: { path: { workspaceId, bookingId: b.id } },
          }),
        )
      ).data,
  );
  return (
    <Section title="Payment link">
      <ErrorNotice error={link.error} />
      {link.data ? (
        <p>
          Send this link for {formatMoney(link.data.amount, b.currency)}:{' '}
          <a href={link.data.url} target="_blank" rel="noreferrer">
            {link.data.url}
          </a>
        </p>
      ) : (
        <button type="button" onClick={() => link.mutate(undefined)} disabled={link.isPending}>
          Create payment link for the balance
        </button>
      )}
    </Section>
  );
}

function Refund({ booking: b }: { booking: Booking }) {
  const { workspaceId } = useWorkspace();
  const left = b.amountPaid - b.amountRefunded;
  const [amount, setAmount] = useState(moneyInput(left, b.currency));
  const [reason, setReason] = useState('');
  const refund = useBookingChange(b, async (body: Schemas['RefundCreate']) =>
    call(
      api.POST('/workspaces/{workspaceId}/bookings/{bookingId}/refunds', {
        params: { path: { workspaceId, bookingId: b.id }, header: { 'Idempotency-Key': idempotencyKey() } },
        body,
      }),
    ),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = parseMoney(amount, b.currency);
    refund.mutate({ ...(minor !== null && { amount: minor }), ...(reason && { reason }) });
  };
  return (
    <Section title="Refund">
      <form onSubmit={submit} className="form" aria-label="Refund">
        {refund.isSuccess && <Success>Refund made.</Success>}
        <ErrorNotice error={refund.error} />
        <div className="grid">
          <TextField
            label={`Amount (${b.currency})`}
            hint={`Up to ${formatMoney(left, b.currency)}.`}
            inputMode="decimal"
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            field="amount"
            error={refund.error}
          />
          <TextField
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            field="reason"
            error={refund.error}
          />
        </div>
        <button type="submit" className="button-danger" disabled={refund.isPending}>
          Refund
        </button>
      </form>
    </Section>
  );
}

function MoveBooking({ booking: b, tour }: { booking: Booking; tour: Tour }) {
  const { workspaceId } = useWorkspace();
  const today = new Date().toISOString().slice(0, 10);
  const departures = useDepartures(today, addDays(today, 60), tour.id);
  const [target, setTarget] = useState('');
  const move = useBookingChange(b, async (availabilityId: string) =>
    call(
      api.PATCH('/workspaces/{workspaceId}/bookings/{bookingId}', {
        params: { path: { workspaceId, bookingId: b.id } },
        body: { availabilityId },
      }),
    ),
  );
  const choices = (departures.data ?? []).filter(
    (d) => d.id !== b.availabilityId && d.seatsRemaining >= b.participantCount && d.status !== 'CANCELLED',
  );
  return (
    <Section title="Move to another departure">
      {departures.isPending ? (
        <Loading what="Loading departures" />
      ) : choices.length === 0 ? (
        <Empty>
          No other departure of this tour in the next 60 days has {b.participantCount} seats free.
        </Empty>
      ) : (
        <form
          className="form"
          aria-label="Move to another departure"
          onSubmit={(e) => {
            e.preventDefault();
            if (target) move.mutate(target);
          }}
        >
          {move.isSuccess && <Success>Moved; the seats moved with it.</Success>}
          <ErrorNotice error={move.error} />
          <SelectField
            label="Departure"
            options={[
              ['', 'Choose a departure'],
              ...choices.map(
                (d) =>
                  [
                    d.id,
                    `${formatDateTime(d.startsAt, tour.timeZone)} · ${d.seatsRemaining} seats left`,
                  ] as const,
              ),
            ]}
            value={target}
            onChange={(e) => setTarget(e.target.value)}
            field="availabilityId"
            error={move.error}
          />
          <button type="submit" className="button-primary" disabled={!target || move.isPending}>
            Move booking
          </button>
        </form>
      )}
    </Section>
  );
}

function History({ bookingId, timeZone }: { bookingId: string; timeZone: string }) {
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
