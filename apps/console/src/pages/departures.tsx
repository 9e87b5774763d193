import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, idempotencyKey } from '../api';
import { Badge } from '../components/badges';
import { ErrorNotice, Loading } from '../components/feedback';
import { SelectField, TextField } from '../components/field';
import { PageHeader, Section } from '../components/page';
import { ScheduleForm } from '../components/schedules';
import { SeatsField } from '../components/seats-field';
import { addDays, browserZone, formatDay, localDate, localTime, startOfWeek, zonedToUtc } from '../format';
import { canWrite } from '../permissions';
import { type Departure, type Tour, useDepartures, useTourMap, useTours } from '../queries';
import { Link, navigate, useLocation } from '../router';
import { useWorkspace } from '../workspace';

type View = 'week' | 'month';

/** The calendar of departures, a week or a month at a time, and the forms that make them. */
export function DeparturesPage() {
  const { workspaceId, role } = useWorkspace();
  const { search } = useLocation();
  const view: View = search.get('view') === 'month' ? 'month' : 'week';
  const tourId = search.get('tour') ?? '';
  const today = localDate(new Date(), browserZone());
  const anchor = search.get('from') ?? today;
  const first = view === 'week' ? startOfWeek(anchor) : `${anchor.slice(0, 7)}-01`;
  const firstShown = view === 'week' ? first : startOfWeek(first);
  const dayCount = view === 'week' ? 7 : 42;
  const days = Array.from({ length: dayCount }, (_, i) => addDays(firstShown, i));
  const lastShown = days[days.length - 1] as string;
  const departures = useDepartures(addDays(firstShown, -1), addDays(lastShown, 1), tourId || undefined);
  const tours = useTourMap();
  const tourList = useTours();
  const [making, setMaking] = useState<'departure' | 'schedule' | null>(null);

  const go = (params: Record<string, string>) => {
    const next = new URLSearchParams({ view, from: first, ...(tourId && { tour: tourId }), ...params });
    for (const [key, value] of [...next]) if (!value) next.delete(key);
    navigate(`/${workspaceId}/departures?${next}`);
  };
  const step = (sign: number) =>
    view === 'week'
      ? addDays(first, 7 * sign)
      : `${new Date(Date.UTC(+first.slice(0, 4), +first.slice(5, 7) - 1 + sign, 1)).toISOString().slice(0, 10)}`;
  const byDay = new Map<string, Departure[]>();
  for (const d of departures.data ?? []) {
    const tour = tours?.get(d.tourId);
    if (!tour) continue;
    const day = localDate(d.startsAt, tour.timeZone);
    byDay.set(day, [...(byDay.get(day) ?? []), d]);
  }
  for (const list of byDay.values()) list.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  const title =
    view === 'week'
      ? `Week of ${formatDay(first)}`
      : new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
          new Date(`${first}T00:00:00Z`),
        );

  return (
    <>
      <PageHeader title="Departures">
        {canWrite(role, 'departures') && (
          <>
            <button
              type="button"
              className="button-primary"
              onClick={() => setMaking(making === 'departure' ? null : 'departure')}
              aria-expanded={making === 'departure'}
            >
              New departure
            </button>
            <button
              type="button"
              onClick={() => setMaking(making === 'schedule' ? null : 'schedule')}
              aria-expanded={making === 'schedule'}
            >
              New schedule
            </button>
          </>
        )}
      </PageHeader>
      {making === 'departure' && tourList.data && <NewDeparture tours={tourList.data} />}
      {making === 'schedule' && tourList.data && <NewSchedule tours={tourList.data} />}
      <div className="toolbar">
        <fieldset className="segmented">
          <legend className="visually-hidden">View</legend>
          <button type="button" aria-pressed={view === 'week'} onClick={() => go({ view: 'week' })}>
            Week
          </button>
          <button type="button" aria-pressed={view === 'month'} onClick={() => go({ view: 'month' })}>
            Month
          </button>
        </fieldset>
        <fieldset className="segmented">
          <legend className="visually-hidden">Move</legend>
          <button type="button" onClick={() => go({ from: step(-1) })}>
            <span aria-hidden="true">‹</span> Previous
          </button>
          <button type="button" onClick={() => go({ from: today })}>
            Today
          </button>
          <button type="button" onClick={() => go({ from: step(1) })}>
            Next <span aria-hidden="true">›</span>
          </button>
        </fieldset>
        <SelectField
          label="Tour"
          options={[['', 'All tours'], ...(tourList.data ?? []).map((t) => [t.id, t.name] as const)]}
          value={tourId}
          onChange={(e) => go({ tour: e.target.value })}
        />
      </div>
      <h2 aria-live="polite">{title}</h2>
      <ErrorNotice error={departures.error} />
      {departures.isPending || !tours ? (
        <Loading what="Loading departures" />
      ) : view === 'week' ? (
        <ol className="week">
          {days.map((day) => (
            <li key={day} className={day === today ? 'day today' : 'day'}>
              <h3>{formatDay(day, undefined, 'short')}</h3>
              <DayList departures={byDay.get(day) ?? []} tours={tours} />
            </li>
          ))}
        </ol>
      ) : (
        <MonthGrid days={days} month={first.slice(0, 7)} today={today} byDay={byDay} tours={tours} />
      )}
    </>
  );
}

function DayList({ departures, tours }: { departures: Departure[]; tours: Map<string, Tour> }) {
  const { workspaceId } = useWorkspace();
  if (departures.length === 0) return <p className="muted small">No departures</p>;
  return (
    <ul className="day-list">
      {departures.map((d) => {
        const tour = tours.get(d.tourId) as Tour;
        return (
          <li key={d.id}>
            <Link to={`/${workspaceId}/departures/${d.id}`}>
              <time dateTime={d.startsAt}>{localTime(d.startsAt, tour.timeZone)}</time> {tour.name}
            </Link>
            <span className="small">
              {' '}
              {d.bookedSeats}/{d.capacity}{' '}
              <Badge value={d.status === 'SCHEDULED' ? d.salesStatus : d.status} />
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function MonthGrid(props: {
  days: string[];
  month: string;
  today: string;
  byDay: Map<string, Departure[]>;
  tours: Map<string, Tour>;
}) {
  const [open, setOpen] = useState<string | null>(null);
  const weeks = Array.from({ length: 6 }, (_, w) => props.days.slice(w * 7, w * 7 + 7));
  const chosen = open ? (props.byDay.get(open) ?? []) : [];
  return (
    <>
      <div className="table-wrap">
        <table className="month">
          <thead>
            <tr>
              {['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'].map((d) => (
                <th key={d} scope="col">
                  {d}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((week) => (
              <tr key={week[0]}>
                {week.map((day) => {
                  const list = props.byDay.get(day) ?? [];
                  const seats = list.reduce((sum, d) => sum + d.bookedSeats, 0);
                  return (
                    <td
                      key={day}
                      className={`${day.startsWith(props.month) ? '' : 'other-month'} ${day === props.today ? 'today' : ''}`}
                    >
                      <button
                        type="button"
                        className="month-day"
                        aria-pressed={open === day}
                        onClick={() => setOpen(open === day ? null : day)}
                      >
                        <span className="month-date">{Number(day.slice(8))}</span>
                        <span className="visually-hidden">{formatDay(day)}:</span>
                        <span className="small">
                          {list.length ? `${list.length} dep. · ${seats} sold` : '—'}
                        </span>
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {open && (
        <Section title={formatDay(open)}>
          <DayList departures={chosen} tours={props.tours} />
        </Section>
      )}
    </>
  );
}

function NewDeparture({ tours }: { tours: Tour[] }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const [tourId, setTourId] = useState(tours[0]?.id ?? '');
  const tour = tours.find((t) => t.id === tourId);
  const [day, setDay] = useState(new Date().toISOString().slice(0, 10));
  const [time, setTime] = useState('09:00');
  const [capacity, setCapacity] = useState('');
  const create = useMutation({
    mutationFn: async () =>
      (
        await call(
          api.POST('/workspaces/{workspaceId}/availability', {
            params: { path: { workspaceId }, header: { 'Idempotency-Key': idempotencyKey() } },
            body: {
              tourId,
              startsAt: zonedToUtc(day, time, tour?.timeZone ?? 'UTC').toISOString(),
              ...(capacity && { capacity: Number(capacity) }),
            },
          }),
        )
      ).data,
    onSuccess: (created) => {
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'departures'] });
      navigate(`/${workspaceId}/departures/${created.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const err = create.error;
  if (!tours.length) return <p className="notice notice-info">Create a tour first.</p>;
  return (
    <Section title="New departure">
      <form onSubmit={submit} className="form">
        <ErrorNotice error={err} />
        <div className="grid">
          <SelectField
            label="Tour"
            options={tours.map((t) => [t.id, t.name] as const)}
            value={tourId}
            onChange={(e) => setTourId(e.target.value)}
            field="tourId"
            error={err}
          />
          <TextField
            label="Day"
            type="date"
            required
            value={day}
            onChange={(e) => setDay(e.target.value)}
            field="startsAt"
            error={err}
          />
          <TextField
            label="Time"
            hint={tour ? `In ${tour.timeZone}` : undefined}
            type="time"
            required
            value={time}
            onChange={(e) => setTime(e.target.value)}
          />
          <SeatsField value={capacity} onChange={setCapacity} error={err} tourCapacity={tour?.capacity} />
        </div>
        <button type="submit" className="button-primary" disabled={create.isPending}>
          Create departure
        </button>
      </form>
    </Section>
  );
}

function NewSchedule({ tours }: { tours: Tour[] }) {
  const [tourId, setTourId] = useState(tours[0]?.id ?? '');
  const tour = tours.find((t) => t.id === tourId);
  if (!tours.length) return <p className="notice notice-info">Create a tour first.</p>;
  return (
    <Section title="New schedule">
      <SelectField
        label="Tour"
        options={tours.map((t) => [t.id, t.name] as const)}
        value={tourId}
        onChange={(e) => setTourId(e.target.value)}
      />
      {tour && <ScheduleForm key={tour.id} tour={tour} />}
    </Section>
  );
}
