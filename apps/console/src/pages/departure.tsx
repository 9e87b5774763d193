import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, api, call, type Schemas } from '../api';
import { Badge } from '../components/badges';
import { Empty, ErrorNotice, Loading, Success } from '../components/feedback';
import { SelectField, TextField } from '../components/field';
import { PageHeader, Section } from '../components/page';
import { SeatsField } from '../components/seats-field';
import { formatDateTime, formatMoney, localTime, moneyInput, parseMoney } from '../format';
import { canWrite } from '../permissions';
import { type Departure, type Tour, useGuides, useManifest, useVehicles } from '../queries';
import { Link } from '../router';
import { useWorkspace } from '../workspace';
import { Crew } from './departure/crew';

type Manifest = Schemas['DepartureManifest'];

/** One departure: who is on it and who has checked in, its status, seats, prices and crew. */
export function DeparturePage({ availabilityId }: { availabilityId: string }) {
  const { workspaceId, role } = useWorkspace();
  const manifest = useManifest(availabilityId);
  const tour = useQuery({
    queryKey: [workspaceId, 'tour', manifest.data?.tour.id],
    enabled: !!manifest.data,
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/tours/{tourId}', {
            params: { path: { workspaceId, tourId: manifest.data?.tour.id as string } },
          }),
        )
      ).data,
  });
  if (manifest.isPending) return <Loading what="Loading the departure" />;
  if (manifest.isError) return <ErrorNotice error={manifest.error} />;
  const m = manifest.data;
  const title = `${m.tour.name}, ${formatDateTime(m.departure.startsAt, m.tour.timeZone)}`;
  return (
    <>
      <PageHeader title={title}>
        <CsvDownload availabilityId={availabilityId} />
      </PageHeader>
      <p className="departure-meta">
        <strong>{m.departure.bookedSeats}</strong> / {m.departure.capacity} sold
        {m.departure.heldSeats > 0 && ` (${m.departure.heldSeats} on hold)`} ·{' '}
        <Badge value={m.departure.salesStatus} label="Sales" />{' '}
        <Badge value={m.departure.status} label="Status" /> · {m.totals.checkedIn} of {m.totals.participants}{' '}
        checked in · times in {m.tour.timeZone}
        {m.tour.meetingPoint && ` · meet at ${m.tour.meetingPoint}`}
      </p>
      <ManifestSection manifest={m} />
      {tour.data &&
        (canWrite(role, 'departures') ? (
          <>
            <DepartureSettings departure={m.departure} tour={tour.data} />
            <Crew departure={m.departure} tour={tour.data} />
          </>
        ) : (
          <DepartureFacts departure={m.departure} tour={tour.data} />
        ))}
      <p>
        <Link to={`/${workspaceId}/departures`}>All departures</Link>
      </p>
    </>
  );
}

function ManifestSection({ manifest: m }: { manifest: Manifest }) {
  const { workspaceId, role } = useWorkspace();
  const queryClient = useQueryClient();
  const checkIn = useMutation({
    mutationFn: async ({ bookingId, participantId }: { bookingId: string; participantId: string }) =>
      call(
        api.POST('/workspaces/{workspaceId}/bookings/{bookingId}/checkin', {
          params: { path: { workspaceId, bookingId } },
          body: { participantIds: [participantId] },
        }),
      ),
    // Shown as checked in once the server says so, not before.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [workspaceId, 'manifest', m.departure.id] }),
  });
  const mayCheckIn = canWrite(role, 'checkin');
  return (
    <Section title="Manifest">
      <ErrorNotice error={checkIn.error} />
      <p className="muted">
        {m.counts.map((c) => `${c.count} ${c.name}`).join(' · ')} · {m.totals.bookings}{' '}
        {m.totals.bookings === 1 ? 'booking' : 'bookings'}
      </p>
      {m.bookings.length === 0 ? (
        <Empty>No bookings on this departure yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Traveller</th>
                <th scope="col">Ticket</th>
                <th scope="col">Booking</th>
                <th scope="col">Notes</th>
                <th scope="col">Check-in</th>
              </tr>
            </thead>
            <tbody>
              {m.bookings.flatMap((b) =>
                b.participants.map((p) => (
                  <tr key={p.id}>
                    <th scope="row">
                      {p.name}
                      {p.waiverSigned && <span className="muted small"> · waiver signed</span>}
                    </th>
                    <td>{p.ticketTypeName}</td>
                    <td>
                      <Link to={`/${workspaceId}/bookings/${b.id}`}>{b.customer.name}</Link>{' '}
                      <Badge value={b.status} label="Booking" />{' '}
                      <Badge value={b.paymentStatus} label="Payment" />
                    </td>
                    <td className="small">
                      {[p.dietaryNotes, p.accessibilityNotes].filter(Boolean).join('; ') || (
                        <span className="muted">none</span>
                      )}
                    </td>
                    <td>
                      {p.checkedInAt ? (
                        <span className="checked-in">
                          Checked in {localTime(p.checkedInAt, m.tour.timeZone)}
                        </span>
                      ) : mayCheckIn && b.status === 'CONFIRMED' ? (
                        <button
                          type="button"
                          disabled={checkIn.isPending}
                          onClick={() => checkIn.mutate({ bookingId: b.id, participantId: p.id })}
                        >
                          Check in <span className="visually-hidden">{p.name}</span>
                        </button>
                      ) : (
                        <span className="muted">
                          {b.status === 'CONFIRMED' ? 'Not yet' : 'Not confirmed'}
                        </span>
                      )}
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}

/** The manifest as CSV (the server writes it; a spreadsheet opens it). */
function CsvDownload({ availabilityId }: { availabilityId: string }) {
  const { workspaceId } = useWorkspace();
  const [error, setError] = useState<unknown>();
  const download = async () => {
    setError(undefined);
    const {
      data,
      error: failed,
      response,
    } = await api.GET('/workspaces/{workspaceId}/availability/{availabilityId}/manifest', {
      params: { path: { workspaceId, availabilityId } },
      headers: { Accept: 'text/csv' },
      parseAs: 'blob',
    });
    if (failed || !data) return setError(new ApiError(response.status, failed));
    const name =
      /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'manifest.csv';
    const link = document.createElement('a');
    link.href = URL.createObjectURL(data);
    link.download = name;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };
  return (
    <>
      <button type="button" onClick={download}>
        Download CSV
      </button>
      <ErrorNotice error={error} />
    </>
  );
}

const STATUSES: Departure['status'][] = [
  'SCHEDULED',
  'DELAYED',
  'BOARDING',
  'DEPARTED',
  'COMPLETED',
  'CANCELLED',
];

function DepartureSettings({ departure, tour }: { departure: Departure; tour: Tour }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState(departure.status);
  const [capacity, setCapacity] = useState(String(departure.capacity));
  const override = (id: string) => departure.prices.find((p) => p.ticketTypeId === id)?.price;
  const [prices, setPrices] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      tour.ticketTypes.map((t) => [t.id, moneyInput(override(t.id) ?? t.price, tour.currency)] as const),
    ),
  );
  const save = useMutation({
    mutationFn: async (body: Schemas['AvailabilityUpdate']) =>
      call(
        api.PATCH('/workspaces/{workspaceId}/availability/{availabilityId}', {
          params: { path: { workspaceId, availabilityId: departure.id } },
          body,
        }),
      ),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'manifest', departure.id] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'departures'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const changed = tour.ticketTypes
      .map((t) => ({ ticketTypeId: t.id, price: parseMoney(prices[t.id] ?? '', tour.currency) }))
      .filter((p): p is { ticketTypeId: string; price: number } => p.price !== null);
    save.mutate({
      ...(status !== departure.status && { status }),
      ...(Number(capacity) !== departure.capacity && { capacity: Number(capacity) }),
      ...(tour.ticketTypes.length > 0 && { prices: changed }),
    });
  };
  const err = save.error;
  return (
    <Section title="Status, seats and prices">
      <form onSubmit={submit} className="form" aria-label="Status, seats and prices">
        <fieldset>
          <legend className="visually-hidden">Status, seats and prices</legend>
          {save.isSuccess && <Success>Saved.</Success>}
          <ErrorNotice error={err} />
          <div className="grid">
            <SelectField
              label="Status"
              options={STATUSES.map((s) => [s, s.charAt(0) + s.slice(1).toLowerCase()] as const)}
              value={status}
              onChange={(e) => setStatus(e.target.value as Departure['status'])}
              field="status"
              error={err}
            />
            <SeatsField value={capacity} onChange={setCapacity} error={err} />
            {tour.ticketTypes.map((t, i) => (
              <TextField
                key={t.id}
                label={`${t.name} price (${tour.currency})`}
                hint={`Tour price ${formatMoney(t.price, tour.currency)}`}
                inputMode="decimal"
                value={prices[t.id] ?? ''}
                onChange={(e) => setPrices((p) => ({ ...p, [t.id]: e.target.value }))}
                field={`prices[${i}].price`}
                error={err}
              />
            ))}
          </div>
          <button type="submit" className="button-primary" disabled={save.isPending}>
            Save changes
          </button>
        </fieldset>
      </form>
    </Section>
  );
}

/** What a member who cannot change the departure sees: its prices and crew as text. */
function DepartureFacts({ departure, tour }: { departure: Departure; tour: Tour }) {
  const guides = useGuides();
  const vehicles = useVehicles();
  const person = (id: string | null) =>
    id ? (guides.data?.find((g) => g.memberId === id)?.displayName ?? 'Assigned') : 'Nobody';
  const price = (t: Tour['ticketTypes'][number]) =>
    departure.prices.find((p) => p.ticketTypeId === t.id)?.price ?? t.price;
  return (
    <Section title="Prices and crew">
      <dl className="facts">
        {tour.ticketTypes.map((t) => (
          <div key={t.id}>
            <dt>{t.name}</dt>
            <dd>{formatMoney(price(t), tour.currency)}</dd>
          </div>
        ))}
        <div>
          <dt>Guide</dt>
          <dd>{person(departure.guideId)}</dd>
        </div>
        <div>
          <dt>Driver</dt>
          <dd>{person(departure.driverId)}</dd>
        </div>
        <div>
          <dt>Vehicle</dt>
          <dd>
            {departure.vehicleId
              ? (vehicles.data?.find((v) => v.id === departure.vehicleId)?.name ?? 'Assigned')
              : 'None'}
          </dd>
        </div>
      </dl>
    </Section>
  );
}
