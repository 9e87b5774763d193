import { useState } from 'react';
import { api, call } from '../../api';
import { Empty, ErrorNotice, Loading, Success } from '../../components/feedback';
import { SelectField } from '../../components/field';
import { Section } from '../../components/page';
import { addDays, formatDateTime } from '../../format';
import { type Booking, type Tour, useDepartures } from '../../queries';
import { useWorkspace } from '../../workspace';
import { useBookingChange } from './use-booking-change';

/** Moves the booking to another departure of its tour with seats for everyone on it. */
export function MoveBooking({ booking: b, tour }: { booking: Booking; tour: Tour }) {
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
