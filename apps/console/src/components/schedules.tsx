import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, collect, idempotencyKey, type Schemas } from '../api';
import type { Tour } from '../queries';
import { useWorkspace } from '../workspace';
import { Badge } from './badges';
import { Empty, ErrorNotice, Loading, Success } from './feedback';
import { fieldError, TextField } from './field';
import { SeatsField } from './seats-field';

type Day = Schemas['ScheduleCreate']['daysOfWeek'][number];
const DAYS: readonly [Day, string][] = [
  ['MON', 'Mon'],
  ['TUE', 'Tue'],
  ['WED', 'Wed'],
  ['THU', 'Thu'],
  ['FRI', 'Fri'],
  ['SAT', 'Sat'],
  ['SUN', 'Sun'],
];

/** A weekly pattern that makes the tour's departures, local to its time zone. */
export function ScheduleForm({ tour }: { tour: Tour }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const today = new Date().toISOString().slice(0, 10);
  const [days, setDays] = useState<Day[]>(['MON', 'WED', 'FRI']);
  const [times, setTimes] = useState('09:00');
  const [startsOn, setStartsOn] = useState(today);
  const [endsOn, setEndsOn] = useState('');
  const [capacity, setCapacity] = useState('');
  const create = useMutation({
    mutationFn: async () =>
      (
        await call(
          api.POST('/workspaces/{workspaceId}/tours/{tourId}/schedules', {
            params: {
              path: { workspaceId, tourId: tour.id },
              header: { 'Idempotency-Key': idempotencyKey() },
            },
            body: {
              daysOfWeek: DAYS.map(([day]) => day).filter((day) => days.includes(day)),
              times: times
                .split(/[\s,]+/)
                .map((t) => t.trim())
                .filter(Boolean),
              startsOn,
              endsOn,
              ...(capacity && { capacity: Number(capacity) }),
            },
          }),
        )
      ).data,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'schedules', tour.id] });
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'departures'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  const err = create.error;
  const daysError = fieldError(err, 'daysOfWeek');
  return (
    <form onSubmit={submit} className="form subform" aria-label={`New schedule for ${tour.name}`}>
      <h3>New schedule</h3>
      {create.data && (
        <Success>
          Schedule saved: {create.data.departuresCreated} departures made ({tour.timeZone}).
        </Success>
      )}
      <ErrorNotice error={err} />
      <fieldset className="days">
        <legend>Days</legend>
        {DAYS.map(([day, label]) => (
          <span key={day} className="check">
            <input
              id={`day-${tour.id}-${day}`}
              type="checkbox"
              checked={days.includes(day)}
              onChange={(e) =>
                setDays((list) => (e.target.checked ? [...list, day] : list.filter((d) => d !== day)))
              }
            />
            <label htmlFor={`day-${tour.id}-${day}`}>{label}</label>
          </span>
        ))}
        {daysError && <p className="field-error">{daysError}</p>}
      </fieldset>
      <div className="grid">
        <TextField
          label="Times"
          hint={`24 h, comma separated, in ${tour.timeZone}: 09:00, 14:30`}
          required
          value={times}
          onChange={(e) => setTimes(e.target.value)}
          field="times"
          error={err}
        />
        <TextField
          label="First day"
          type="date"
          required
          value={startsOn}
          onChange={(e) => setStartsOn(e.target.value)}
          field="startsOn"
          error={err}
        />
        <TextField
          label="Last day"
          type="date"
          required
          value={endsOn}
          onChange={(e) => setEndsOn(e.target.value)}
          field="endsOn"
          error={err}
        />
        <SeatsField value={capacity} onChange={setCapacity} error={err} tourCapacity={tour.capacity} />
      </div>
      <button type="submit" className="button-primary" disabled={create.isPending}>
        Create schedule
      </button>
    </form>
  );
}

/** The tour's schedules, newest first. */
export function Schedules({ tour }: { tour: Tour }) {
  const { workspaceId } = useWorkspace();
  const schedules = useQuery({
    queryKey: [workspaceId, 'schedules', tour.id],
    queryFn: () =>
      collect(async (cursor) =>
        call(
          api.GET('/workspaces/{workspaceId}/tours/{tourId}/schedules', {
            params: {
              path: { workspaceId, tourId: tour.id },
              query: { limit: 100, ...(cursor && { cursor }) },
            },
          }),
        ),
      ),
  });
  if (schedules.isPending) return <Loading what="Loading schedules" />;
  if (schedules.isError) return <ErrorNotice error={schedules.error} />;
  if (!schedules.data.length) return <Empty>No schedules: departures are made one by one.</Empty>;
  return (
    <ul className="list">
      {schedules.data.map((s) => (
        <li key={s.id}>
          {s.daysOfWeek.join(', ')} at {s.times.join(', ')} · {s.startsOn} to {s.endsOn}
          {s.capacity !== null && ` · ${s.capacity} seats`} <Badge value={s.status} />
        </li>
      ))}
    </ul>
  );
}
