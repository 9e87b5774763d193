import { useState } from 'preact/hooks';
import type { PublicBooking, PublicDeparture, Tour, WidgetApi } from '../api.js';
import { monthOf } from '../calendar-grid.js';
import { formatDay, localDateOf } from '../format.js';
import { type Party, type TicketRow, ticketRows } from '../party.js';
import { type Cache, useResource } from '../resource.js';
import { strings } from '../strings.js';
import { DeparturePicker } from './departure-picker.js';
import { type Contact, DetailsForm } from './details-form.js';
import { FailureMessage } from './failure-message.js';
import { MonthCalendar } from './month-calendar.js';
import { PartyPicker } from './party-picker.js';
import { StepHeading } from './step-heading.js';
import { TourPicker } from './tour-picker.js';

interface BookingWidgetProps {
  api: WidgetApi;
  cache: Cache;
  /** `data-tour`: book this tour only; otherwise the guest picks one of the published tours. */
  tourSlug: string | null;
  /** Where the guest goes to pay (the page leaves for the checkout). */
  navigate(url: string): void;
}

/** The whole widget: pick a tour (unless the page names one), then book it. */
export function BookingWidget({ api, cache, tourSlug, navigate }: BookingWidgetProps) {
  const [chosen, setChosen] = useState<Tour | null>(null);
  return (
    <section class="widget" aria-label={strings.widgetLabel}>
      {tourSlug ? (
        <FixedTour api={api} cache={cache} tourSlug={tourSlug} navigate={navigate} />
      ) : chosen ? (
        <TourBooking
          api={api}
          cache={cache}
          tour={chosen}
          firstStep={2}
          steps={5}
          focusFirst
          navigate={navigate}
          onBack={() => setChosen(null)}
        />
      ) : (
        <>
          <StepHeading title={strings.chooseTour} step={1} of={5} focus={false} />
          <TourPicker api={api} cache={cache} onChoose={setChosen} />
        </>
      )}
    </section>
  );
}

function FixedTour({
  api,
  cache,
  tourSlug,
  navigate,
}: Omit<BookingWidgetProps, 'tourSlug'> & { tourSlug: string }) {
  const tour = useResource(cache, `tour:${tourSlug}`, () => api.getTour(tourSlug));
  if (tour.state === 'loading') return <p role="status">{strings.loading}</p>;
  if (tour.state === 'failed') return <FailureMessage failure={tour.failure} />;
  return <TourBooking api={api} cache={cache} tour={tour.data} firstStep={1} steps={4} navigate={navigate} />;
}

type Step = 'date' | 'time' | 'party' | 'details' | 'checkout';
const ORDER: Step[] = ['date', 'time', 'party', 'details'];

interface TourBookingProps {
  api: WidgetApi;
  cache: Cache;
  tour: Tour;
  firstStep: number;
  steps: number;
  /** The guest got here by choosing a tour: focus the first step's heading. */
  focusFirst?: boolean;
  navigate(url: string): void;
  onBack?: () => void;
}

/** The first seat row of an adult band starts at one; the guest changes it in a click. */
const startingParty = (rows: TicketRow[]): Party => {
  const adult = rows.findIndex((row) => row.type.ageBand === 'ADULT');
  return rows.map((_, i) => (i === Math.max(adult, 0) ? 1 : 0));
};

/** One tour: date -> time -> who is coming -> details and book -> the checkout. */
function TourBooking({
  api,
  cache,
  tour,
  firstStep,
  steps,
  focusFirst = false,
  navigate,
  onBack,
}: TourBookingProps) {
  const today = localDateOf(new Date().toISOString(), tour.timeZone);
  const [step, setStep] = useState<Step>('date');
  const [moved, setMoved] = useState(focusFirst);
  const [month, setMonth] = useState(monthOf(today));
  const [date, setDate] = useState<string | null>(null);
  const [departure, setDeparture] = useState<PublicDeparture | null>(null);
  const [rows, setRows] = useState<TicketRow[]>([]);
  const [party, setParty] = useState<Party>([]);
  const [names, setNames] = useState<string[]>([]);
  const [contact, setContact] = useState<Contact>({ name: '', email: '', phone: '' });
  const [soldOut, setSoldOut] = useState(false);

  const go = (next: Step) => {
    setMoved(true);
    setStep(next);
  };
  const back = () => {
    setSoldOut(false);
    const i = ORDER.indexOf(step);
    if (i <= 0) onBack?.();
    else go(ORDER[i - 1] as Step);
  };
  const number = firstStep + Math.max(0, ORDER.indexOf(step));
  const heading = (title: string) => <StepHeading title={title} step={number} of={steps} focus={moved} />;

  if (step === 'checkout') {
    return (
      <p class="note" role="status">
        {strings.toCheckout}
      </p>
    );
  }

  const booked = (booking: PublicBooking) => {
    go('checkout');
    if (booking.checkoutUrl) navigate(booking.checkoutUrl);
  };

  return (
    <div>
      <p class="muted">{tour.name}</p>
      {step === 'date' && (
        <>
          {heading(strings.chooseDate)}
          <MonthCalendar
            api={api}
            cache={cache}
            tour={tour}
            month={month}
            firstMonth={monthOf(today)}
            selected={date}
            onMonth={setMonth}
            onChoose={(day) => {
              setDate(day);
              setSoldOut(false);
              go('time');
            }}
          />
          {onBack && (
            <div class="actions">
              <button type="button" class="secondary" onClick={back}>
                {strings.back}
              </button>
            </div>
          )}
        </>
      )}
      {step === 'time' && date && (
        <>
          {heading(strings.chooseTime)}
          <p>{formatDay(date)}</p>
          {soldOut && (
            <p class="alert" role="alert">
              {strings.errors.soldOut}
            </p>
          )}
          <DeparturePicker
            api={api}
            cache={cache}
            tour={tour}
            date={date}
            onChoose={(chosen) => {
              const priced = ticketRows(tour, chosen, strings.guestsFallbackName);
              setDeparture(chosen);
              setRows(priced);
              setParty(startingParty(priced));
              setSoldOut(false);
              go('party');
            }}
          />
          <div class="actions">
            <button type="button" class="secondary" onClick={back}>
              {strings.back}
            </button>
          </div>
        </>
      )}
      {step === 'party' && departure && (
        <>
          {heading(strings.chooseGuests)}
          <PartyPicker
            tour={tour}
            departure={departure}
            rows={rows}
            party={party}
            onChange={setParty}
            onBack={back}
            onContinue={() => go('details')}
          />
        </>
      )}
      {step === 'details' && departure && date && (
        <>
          {heading(strings.yourDetails)}
          <DetailsForm
            api={api}
            tour={tour}
            departure={departure}
            date={date}
            rows={rows}
            party={party}
            names={names}
            contact={contact}
            onNames={setNames}
            onContact={setContact}
            onBack={back}
            onSoldOut={() => {
              // The spec's 409: read availability again and ask the guest to choose again.
              cache.invalidate(`calendar:${tour.slug}:`);
              cache.invalidate(`departures:${tour.slug}:`);
              setDeparture(null);
              setSoldOut(true);
              go('time');
            }}
            onBooked={booked}
          />
        </>
      )}
    </div>
  );
}
