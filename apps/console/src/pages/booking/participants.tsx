import { type FormEvent, useState } from 'react';
import { api, call, type Schemas } from '../../api';
import { ErrorNotice, Success } from '../../components/feedback';
import { SelectField, TextField } from '../../components/field';
import { Section } from '../../components/page';
import { formatMoney } from '../../format';
import type { Booking, Tour } from '../../queries';
import { useWorkspace } from '../../workspace';
import { useBookingChange } from './use-booking-change';

type Row = { key: string; name: string; ticketTypeId: string };

/** Who is on the booking, and (while it is open) editing the list. */
export function Participants({
  booking: b,
  tour,
  editable,
}: {
  booking: Booking;
  tour: Tour;
  editable: boolean;
}) {
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
