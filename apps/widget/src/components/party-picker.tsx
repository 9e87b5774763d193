import type { PublicDeparture, Tour } from '../api.js';
import { formatMoney } from '../format.js';
import {
  canAdd,
  maxPartySize,
  type Party,
  partyProblems,
  partySize,
  partyTotal,
  type TicketRow,
} from '../party.js';
import { strings } from '../strings.js';

interface PartyPickerProps {
  tour: Tour;
  departure: PublicDeparture;
  rows: TicketRow[];
  party: Party;
  onChange(party: Party): void;
  onBack(): void;
  onContinue(): void;
}

/** "Who is coming?": a count per ticket type, the live price, and what the tour requires. */
export function PartyPicker({
  tour,
  departure,
  rows,
  party,
  onChange,
  onBack,
  onContinue,
}: PartyPickerProps) {
  const limit = maxPartySize(tour, departure);
  const problems = partyProblems(rows, party).filter((p) => p.kind !== 'empty');
  const set = (i: number, delta: number) =>
    onChange(party.map((n, j) => (j === i ? Math.max(0, n + delta) : n)));
  const total = formatMoney(partyTotal(rows, party), tour.currency);
  return (
    <div>
      <ul>
        {rows.map((row, i) => {
          const count = party[i] ?? 0;
          const ages = strings.ages(row.type.minAge, row.type.maxAge);
          return (
            <li class="row" key={row.ticketTypeId ?? 'seat'}>
              <span>
                <strong>{row.name}</strong>
                <br />
                <span class="muted">
                  {formatMoney(row.price, tour.currency)}
                  {ages && ` · ${ages}`}
                </span>
              </span>
              <span class="stepper">
                <button
                  type="button"
                  class="secondary"
                  aria-label={strings.removeOne(row.name)}
                  disabled={count === 0}
                  onClick={() => set(i, -1)}
                >
                  −
                </button>
                <output class="count" aria-label={strings.countOf(count, row.name)}>
                  {count}
                </output>
                <button
                  type="button"
                  class="secondary"
                  aria-label={strings.addOne(row.name)}
                  disabled={!canAdd(rows, party, i, limit)}
                  onClick={() => set(i, 1)}
                >
                  +
                </button>
              </span>
            </li>
          );
        })}
      </ul>
      <p class="total" role="status" aria-live="polite">
        {strings.total(total)}
      </p>
      {partySize(party) >= limit && <p class="muted">{strings.maxGuests(limit)}</p>}
      {problems.map((problem) =>
        problem.kind === 'needs_adult' ? (
          <p class="note" key={`adult-${problem.row}`}>
            {strings.needsAdult(rows[problem.row]?.name ?? '')}
          </p>
        ) : problem.kind === 'below_minimum' ? (
          <p class="note" key={`min-${problem.row}`}>
            {strings.atLeast(problem.min, rows[problem.row]?.name ?? '')}
          </p>
        ) : null,
      )}
      {partySize(party) === 0 && <p class="muted">{strings.pickSomeone}</p>}
      <div class="actions">
        <button type="button" class="secondary" onClick={onBack}>
          {strings.back}
        </button>
        <button type="button" disabled={partyProblems(rows, party).length > 0} onClick={onContinue}>
          {strings.continue}
        </button>
      </div>
    </div>
  );
}
