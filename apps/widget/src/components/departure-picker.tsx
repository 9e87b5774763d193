import type { PublicDeparture, Tour, WidgetApi } from '../api.js';
import { addDays } from '../calendar-grid.js';
import { formatTime, fromPriceText, localDateOf, lowestPaid, zoneName } from '../format.js';
import { ticketRows } from '../party.js';
import { type Cache, useResource } from '../resource.js';
import { strings } from '../strings.js';
import { FailureMessage } from './failure-message.js';

interface DeparturePickerProps {
  api: WidgetApi;
  cache: Cache;
  tour: Tour;
  /** The local day (the tour's time zone) the guest picked. */
  date: string;
  onChoose(departure: PublicDeparture): void;
}

const open = (d: PublicDeparture) => d.salesStatus !== 'SOLD_OUT' && d.seatsRemaining > 0;

/** The departures of one local day with the seats they have left; sold-out ones say so. */
export function DeparturePicker({ api, cache, tour, date, onChoose }: DeparturePickerProps) {
  // The list filters on UTC dates; a local day lies within a day of its UTC date either side.
  const departures = useResource(cache, `departures:${tour.slug}:${date}`, () =>
    api.departures(tour.slug, addDays(date, -1), addDays(date, 1)),
  );
  if (departures.state === 'loading') return <p role="status">{strings.loading}</p>;
  if (departures.state === 'failed') return <FailureMessage failure={departures.failure} />;
  const ofDay = departures.data
    .filter((d) => localDateOf(d.startsAt, tour.timeZone) === date)
    .sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  if (!ofDay.some(open)) return <p>{strings.noTimes}</p>;
  return (
    <ul class="choices">
      {ofDay.map((departure) => {
        const time = formatTime(departure.startsAt, tour.timeZone);
        const lowest = fromPriceText(
          lowestPaid(ticketRows(tour, departure, '').map((row) => row.price)),
          tour.currency,
        );
        return (
          <li key={departure.id}>
            <button
              type="button"
              class="choice"
              disabled={!open(departure)}
              onClick={() => onChoose(departure)}
            >
              <span>
                <strong>{time}</strong>{' '}
                <span class="muted">{zoneName(departure.startsAt, tour.timeZone)}</span>
                <br />
                <span>{open(departure) ? strings.seatsLeft(departure.seatsRemaining) : strings.soldOut}</span>
              </span>
              {lowest && <span>{strings.fromPrice(lowest)}</span>}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
