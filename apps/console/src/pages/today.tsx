import { useQueries, useQuery } from '@tanstack/react-query';
import { api, call } from '../api';
import { Badge } from '../components/badges';
import { Empty, ErrorNotice, Loading } from '../components/feedback';
import { PageHeader, Section } from '../components/page';
import { addDays, browserZone, formatDay, formatMoney, localDate, localTime } from '../format';
import {
  type Booking,
  type Departure,
  fetchManifest,
  type Tour,
  useDepartures,
  useGuides,
  useTourMap,
  useVehicles,
} from '../queries';
import { Link } from '../router';
import { useWorkspace } from '../workspace';

const DAY_MS = 86_400_000;

/** The operator's day: what departs today, who is on it, and what sold this week. */
export function TodayPage() {
  const today = localDate(new Date(), browserZone());
  return (
    <>
      <PageHeader title="Today" />
      <p className="muted">{formatDay(today)}</p>
      <TodaysDepartures />
      <LastSevenDays />
    </>
  );
}

function TodaysDepartures() {
  const { workspaceId } = useWorkspace();
  const utcToday = new Date().toISOString().slice(0, 10);
  // One UTC day either side covers every tour's zone; each tour's own "today" then filters.
  const departures = useDepartures(addDays(utcToday, -1), addDays(utcToday, 1));
  const tours = useTourMap();
  const guides = useGuides();
  const vehicles = useVehicles();
  const todays = (departures.data ?? [])
    .filter((d) => {
      const tour = tours?.get(d.tourId);
      return tour && localDate(d.startsAt, tour.timeZone) === localDate(new Date(), tour.timeZone);
    })
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  const manifests = useQueries({
    queries: todays.map((d) => ({
      queryKey: [workspaceId, 'manifest', d.id],
      queryFn: () => fetchManifest(workspaceId, d.id),
    })),
  });
  const guideName = new Map((guides.data ?? []).map((g) => [g.memberId, g.displayName]));
  const vehicleName = new Map((vehicles.data ?? []).map((v) => [v.id, v.name]));

  return (
    <Section title="Departures today">
      {departures.isError && <ErrorNotice error={departures.error} />}
      {departures.isPending || !tours ? (
        <Loading what="Loading today’s departures" />
      ) : todays.length === 0 ? (
        <Empty>Nothing departs today.</Empty>
      ) : (
        <ul className="cards">
          {todays.map((d, i) => {
            const tour = tours.get(d.tourId) as Tour;
            const totals = manifests[i]?.data?.totals;
            return (
              <li key={d.id} className="card departure-card">
                <DepartureSummary
                  departure={d}
                  tour={tour}
                  guide={d.guideId ? (guideName.get(d.guideId) ?? 'Assigned') : null}
                  vehicle={d.vehicleId ? (vehicleName.get(d.vehicleId) ?? 'Assigned') : null}
                  checkIn={
                    totals ? `${totals.checkedIn} of ${totals.participants} checked in` : 'Check-in loading…'
                  }
                  progress={totals && totals.participants > 0 ? totals.checkedIn / totals.participants : 0}
                />
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}

function DepartureSummary(props: {
  departure: Departure;
  tour: Tour;
  guide: string | null;
  vehicle: string | null;
  checkIn: string;
  progress: number;
}) {
  const { departure: d, tour } = props;
  const { workspaceId } = useWorkspace();
  return (
    <>
      <h3>
        <Link to={`/${workspaceId}/departures/${d.id}`}>
          <time dateTime={d.startsAt}>{localTime(d.startsAt, tour.timeZone)}</time> {tour.name}
        </Link>
      </h3>
      <p className="departure-meta">
        <span>
          <strong>{d.bookedSeats}</strong> / {d.capacity} sold
        </span>{' '}
        <Badge value={d.salesStatus} label="Sales" />{' '}
        {d.status !== 'SCHEDULED' && <Badge value={d.status} label="Status" />}
      </p>
      <dl className="inline-list">
        <dt>Guide</dt>
        <dd>{props.guide ?? <span className="muted">none</span>}</dd>
        <dt>Vehicle</dt>
        <dd>{props.vehicle ?? <span className="muted">none</span>}</dd>
        <dt>Time zone</dt>
        <dd>{tour.timeZone}</dd>
      </dl>
      <p className="checkin">
        <progress max={1} value={props.progress} aria-label={`Check-in of ${tour.name}`} /> {props.checkIn}
      </p>
    </>
  );
}

/** Bookings made in the last seven days, newest first (their pages, until older than that). */
function useRecentBookings() {
  const { workspaceId } = useWorkspace();
  return useQuery({
    queryKey: [workspaceId, 'bookings', 'last-7-days'],
    queryFn: async () => {
      const since = Date.now() - 7 * DAY_MS;
      const recent: Booking[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const answer = await call(
          api.GET('/workspaces/{workspaceId}/bookings', {
            params: {
              path: { workspaceId },
              query: { sort: '-createdAt', limit: 100, ...(cursor && { cursor }) },
            },
          }),
        );
        const fresh = answer.data.filter((b) => Date.parse(b.createdAt) >= since);
        recent.push(...fresh);
        if (fresh.length < answer.data.length || !answer.pagination.hasMore || !answer.pagination.nextCursor)
          break;
        cursor = answer.pagination.nextCursor;
      }
      return recent;
    },
  });
}

function LastSevenDays() {
  const { workspaceId } = useWorkspace();
  const bookings = useRecentBookings();
  const tours = useTourMap();
  const zone = browserZone();
  const today = localDate(new Date(), zone);
  const days = Array.from({ length: 7 }, (_, i) => addDays(today, -i));
  const sold = (bookings.data ?? []).filter((b) => b.status !== 'CANCELLED');
  const revenue = (list: Booking[]) => {
    const byCurrency = new Map<string, number>();
    for (const b of list) byCurrency.set(b.currency, (byCurrency.get(b.currency) ?? 0) + b.totalAmount);
    return [...byCurrency].map(([currency, amount]) => formatMoney(amount, currency)).join(' + ') || '—';
  };
  return (
    <Section title="Last 7 days">
      {bookings.isError && <ErrorNotice error={bookings.error} />}
      {bookings.isPending ? (
        <Loading what="Loading bookings" />
      ) : (
        <>
          <div className="stats">
            <p className="stat">
              <span className="stat-value">{sold.length}</span> {sold.length === 1 ? 'booking' : 'bookings'}
            </p>
            <p className="stat">
              <span className="stat-value">{revenue(sold)}</span> revenue
            </p>
          </div>
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Bookings and revenue by day</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col">Bookings</th>
                  <th scope="col">Revenue</th>
                </tr>
              </thead>
              <tbody>
                {days.map((day) => {
                  const ofDay = sold.filter((b) => localDate(b.createdAt, zone) === day);
                  return (
                    <tr key={day}>
                      <th scope="row">{formatDay(day, undefined, 'short')}</th>
                      <td>{ofDay.length}</td>
                      <td>{revenue(ofDay)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <h3>Latest bookings</h3>
          {sold.length === 0 ? (
            <Empty>No bookings in the last seven days.</Empty>
          ) : (
            <ul className="list">
              {sold.slice(0, 8).map((b) => {
                const tour = tours?.get(b.tourId);
                return (
                  <li key={b.id}>
                    <Link to={`/${workspaceId}/bookings/${b.id}`}>{b.participants[0]?.name ?? b.id}</Link>
                    {b.participantCount > 1 && ` +${b.participantCount - 1}`} · {tour?.name ?? 'a tour'} ·{' '}
                    {formatMoney(b.totalAmount, b.currency)} <Badge value={b.status} label="Status" />
                  </li>
                );
              })}
            </ul>
          )}
        </>
      )}
    </Section>
  );
}
