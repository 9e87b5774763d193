import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call, type Schemas } from '../api';
import { Empty, ErrorNotice, Loading } from '../components/feedback';
import { TextField } from '../components/field';
import { PageHeader, Section } from '../components/page';
import { browserZone, formatDay, localDate, localTime, zonedToUtc } from '../format';
import { Link } from '../router';
import { useWorkspace } from '../workspace';

type Day = Schemas['ResourceCalendar'];
type Bar = Day['resources'][number]['departures'][number] | Day['guides'][number]['departures'][number];

/** One local day at a glance: a row per resource and per guide, departures as bars, conflicts marked. */
export function ResourcesPage() {
  const { workspaceId } = useWorkspace();
  const zone = browserZone();
  const [date, setDate] = useState(() => localDate(new Date(), zone));
  const day = useQuery({
    queryKey: [workspaceId, 'resource-calendar', date, zone],
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/resource-calendar', {
            params: { path: { workspaceId }, query: { date, timeZone: zone } },
          }),
        )
      ).data,
  });
  const start = zonedToUtc(date, '00:00', zone).getTime();
  const end = start + 86_400_000;
  return (
    <>
      <PageHeader title="Resources" />
      <TextField
        label="Day"
        type="date"
        value={date}
        onChange={(event) => setDate(event.target.value || date)}
      />
      <p className="muted">
        {formatDay(date)} · {zone}
      </p>
      <ErrorNotice error={day.error} />
      {day.isPending ? (
        <Loading what="Loading the day" />
      ) : day.data ? (
        <>
          <Section title="Boats, vehicles and rooms">
            {!day.data.resources.length ? (
              <Empty>No resources yet.</Empty>
            ) : (
              <ul className="timeline">
                {day.data.resources.map((row) => (
                  <Row
                    key={row.resourceId}
                    label={row.name}
                    detail={row.seatsTotal === null ? row.sharing.toLowerCase() : `${row.seatsTotal} seats`}
                    bars={row.departures}
                    seats={(bar) =>
                      'seatsUsed' in bar && row.seatsTotal !== null
                        ? `${bar.seatsUsed}/${row.seatsTotal} seats`
                        : `${bar.bookedSeats}/${bar.capacity} seats`
                    }
                    range={[start, end]}
                    zone={zone}
                  />
                ))}
              </ul>
            )}
          </Section>
          <Section title="Guides">
            {!day.data.guides.length ? (
              <Empty>No active guides.</Empty>
            ) : (
              <ul className="timeline">
                {day.data.guides.map((row) => (
                  <Row
                    key={row.memberId}
                    label={row.displayName}
                    detail={row.timeOff.length ? 'time off today' : ''}
                    bars={row.departures}
                    seats={(bar) => `${bar.bookedSeats}/${bar.capacity} seats`}
                    range={[start, end]}
                    zone={zone}
                  />
                ))}
              </ul>
            )}
          </Section>
        </>
      ) : null}
    </>
  );
}

function Row({
  label,
  detail,
  bars,
  seats,
  range,
  zone,
}: {
  label: string;
  detail: string;
  bars: readonly Bar[];
  seats: (bar: Bar) => string;
  range: [number, number];
  zone: string;
}) {
  const { workspaceId } = useWorkspace();
  const [start, end] = range;
  const at = (instant: string) =>
    Math.min(100, Math.max(0, ((Date.parse(instant) - start) / (end - start)) * 100));
  return (
    <li className="timeline-row">
      <div className="timeline-label">
        <strong>{label}</strong> <span className="muted small">{detail}</span>
      </div>
      <div className="timeline-track">
        {bars.map((bar) => (
          <Link
            key={bar.availabilityId}
            to={`/${workspaceId}/departures/${bar.availabilityId}`}
            className={`timeline-bar${bar.conflict ? ' timeline-conflict' : ''}`}
            style={{
              left: `${at(bar.startsAt)}%`,
              width: `${Math.max(2, at(bar.endsAt) - at(bar.startsAt))}%`,
            }}
          >
            {bar.tourName} {localTime(bar.startsAt, zone)} · {seats(bar)}
            {bar.conflict && <span className="visually-hidden"> (conflict)</span>}
          </Link>
        ))}
      </div>
    </li>
  );
}
