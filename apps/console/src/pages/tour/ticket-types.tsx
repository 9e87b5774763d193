/** One ticket type of the tour form: its name, age band, price, limit and whether it needs an adult. */
import type { Schemas } from '../../api';
import { SelectField, TextField } from '../../components/field';

type AgeBand = Schemas['TicketType']['ageBand'];
const AGE_BANDS: readonly AgeBand[] = ['ADULT', 'CHILD', 'INFANT', 'SENIOR', 'YOUTH', 'STUDENT', 'OTHER'];
const words = (value: string) => value.charAt(0) + value.slice(1).toLowerCase();

/** A ticket type as the form edits it: its price and limit as typed. */
export interface TicketRow {
  key: string;
  id?: string;
  name: string;
  ageBand: AgeBand;
  price: string;
  requiresAdult: boolean;
  maxPerBooking: string;
}

export const rowOf = (t: Schemas['TicketType']): TicketRow => ({
  key: t.id,
  id: t.id,
  name: t.name,
  ageBand: t.ageBand,
  price: '',
  requiresAdult: t.requiresAdult,
  maxPerBooking: t.maxPerBooking === null ? '' : String(t.maxPerBooking),
});

export function TicketTypeRow({
  index,
  row,
  error,
  onChange,
  onRemove,
}: {
  index: number;
  row: TicketRow;
  error: unknown;
  onChange: (row: TicketRow) => void;
  onRemove: () => void;
}) {
  const field = (name: string) => `ticketTypes[${index}].${name}`;
  return (
    <fieldset className="ticket-row">
      <legend className="visually-hidden">Ticket type {index + 1}</legend>
      <TextField
        label="Name"
        required
        value={row.name}
        onChange={(e) => onChange({ ...row, name: e.target.value })}
        field={field('name')}
        error={error}
      />
      <SelectField
        label="Age band"
        options={AGE_BANDS.map((band) => [band, words(band)] as const)}
        value={row.ageBand}
        onChange={(e) => onChange({ ...row, ageBand: e.target.value as AgeBand })}
        field={field('ageBand')}
        error={error}
      />
      <TextField
        label="Price"
        inputMode="decimal"
        required
        value={row.price}
        onChange={(e) => onChange({ ...row, price: e.target.value })}
        field={field('price')}
        error={error}
      />
      <TextField
        label="At most per booking"
        type="number"
        min={1}
        value={row.maxPerBooking}
        onChange={(e) => onChange({ ...row, maxPerBooking: e.target.value })}
        field={field('maxPerBooking')}
        error={error}
      />
      <div className="check">
        <input
          id={`requires-adult-${row.key}`}
          type="checkbox"
          checked={row.requiresAdult}
          onChange={(e) => onChange({ ...row, requiresAdult: e.target.checked })}
        />
        <label htmlFor={`requires-adult-${row.key}`}>Needs an adult</label>
      </div>
      <button type="button" className="button-quiet" onClick={onRemove}>
        Remove <span className="visually-hidden">ticket type {index + 1}</span>
      </button>
    </fieldset>
  );
}
