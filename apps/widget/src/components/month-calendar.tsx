import type { CalendarDay, Tour, WidgetApi } from '../api.js';
import { addMonths, monthRange, monthWeeks } from '../calendar-grid.js';
import { formatDay, formatMonth, fromPriceText, weekdayNames } from '../format.js';
import { type Cache, useResource } from '../resource.js';
import { strings } from '../strings.js';
import { FailureMessage } from './failure-message.js';

interface MonthCalendarProps {
  api: WidgetApi;
  cache: Cache;
  tour: Tour;
  month: string;
  /** The first month the guest may see: this month in the tour's time zone. */
  firstMonth: string;
  selected: string | null;
  onMonth(month: string): void;
  onChoose(date: string): void;
}

/** How far ahead the calendar goes. */
const MONTHS_AHEAD = 12;

const bookable = (day: CalendarDay | undefined) =>
  day !== undefined && (day.salesStatus === 'AVAILABLE' || day.salesStatus === 'LIMITED');

/** A month of the tour's days (the public calendar): each day's sales status and "from" price. */
export function MonthCalendar({
  api,
  cache,
  tour,
  month,
  firstMonth,
  selected,
  onMonth,
  onChoose,
}: MonthCalendarProps) {
  const { from, to } = monthRange(month);
  const days = useResource(cache, `calendar:${tour.slug}:${month}`, () => api.calendar(tour.slug, from, to));
  const byDate = new Map(days.state === 'ready' ? days.data.map((d) => [d.date, d]) : []);
  const headingId = `month-${month}`;
  const weekdays = weekdayNames();
  return (
    <div>
      <div class="month">
        <button
          type="button"
          class="secondary"
          aria-label={strings.previousMonth}
          disabled={month <= firstMonth}
          onClick={() => onMonth(addMonths(month, -1))}
        >
          ‹
        </button>
        <h3 id={headingId} aria-live="polite">
          {formatMonth(month)}
        </h3>
        <button
          type="button"
          class="secondary"
          aria-label={strings.nextMonth}
          disabled={month >= addMonths(firstMonth, MONTHS_AHEAD)}
          onClick={() => onMonth(addMonths(month, 1))}
        >
          ›
        </button>
      </div>
      {days.state === 'failed' && <FailureMessage failure={days.failure} />}
      {days.state === 'loading' && <p role="status">{strings.loading}</p>}
      <table aria-labelledby={headingId} aria-busy={days.state === 'loading'}>
        <thead>
          <tr>
            {weekdays.map((day) => (
              <th key={day.long} scope="col" abbr={day.long}>
                {day.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(month).map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((date, i) => {
                if (!date) return <td key={`blank-${i}`} />;
                const day = byDate.get(date);
                const status = day?.salesStatus ?? 'CLOSED';
                const price = fromPriceText(day?.fromPrice ?? null, tour.currency);
                return (
                  <td key={date}>
                    <button
                      type="button"
                      class={`day ${status}`}
                      disabled={!bookable(day)}
                      aria-pressed={selected === date}
                      onClick={() => onChoose(date)}
                    >
                      {/* Seen: the day's number and price; heard: the whole date, its status and price. */}
                      <span aria-hidden="true">{Number(date.slice(8))}</span>
                      {status === 'SOLD_OUT' ? (
                        <small aria-hidden="true">{strings.soldOut}</small>
                      ) : (
                        price && <small aria-hidden="true">{price}</small>
                      )}
                      <span class="sr-only">
                        {strings.dayLabel(formatDay(date), strings.dayStatus[status] ?? status, price)}
                      </span>
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      {days.state === 'ready' && !days.data.some(bookable) && <p>{strings.noDatesThisMonth}</p>}
      <p class="legend" aria-hidden="true">
        <span>{strings.legendAvailable}</span>
        <span class="LIMITED">{strings.legendLimited}</span>
      </p>
    </div>
  );
}
