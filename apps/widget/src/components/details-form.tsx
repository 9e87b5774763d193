import { Fragment } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiFailure, BookingCreate, PublicBooking, PublicDeparture, Tour, WidgetApi } from '../api.js';
import { formatDay, formatMoney, formatTime, zoneName } from '../format.js';
import { newIdempotencyKey } from '../idempotency-key.js';
import { type Party, participantsOf, partyTotal, seatsOf, type TicketRow } from '../party.js';
import { strings } from '../strings.js';
import { FailureMessage } from './failure-message.js';

export interface Contact {
  name: string;
  email: string;
  phone: string;
}

interface DetailsFormProps {
  api: WidgetApi;
  tour: Tour;
  departure: PublicDeparture;
  date: string;
  rows: TicketRow[];
  party: Party;
  names: string[];
  contact: Contact;
  onNames(names: string[]): void;
  onContact(contact: Contact): void;
  onBack(): void;
  /** 409: the departure sold out meanwhile. */
  onSoldOut(): void;
  onBooked(booking: PublicBooking): void;
}

/** A same-key repeat while the first request still runs (409 `idempotency_key_in_use`) waits this long. */
const BUSY_RETRY_MS = 1000;

/**
 * Names, contact and the summary, then "Book and pay". One attempt is one `Idempotency-Key`:
 * a second click, a 429's retry or a resubmit of the same details reuse it, so the guest is
 * booked once; changed details make a new attempt.
 */
export function DetailsForm(props: DetailsFormProps) {
  const { api, tour, departure, date, rows, party, names, contact } = props;
  const [failure, setFailure] = useState<ApiFailure | null>(null);
  const [pending, setPending] = useState(false);
  const attempt = useRef<{ key: string; body: string } | null>(null);
  // Set synchronously: a double click submits twice before the first re-render.
  const inFlight = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const seats = seatsOf(party);
  const total = formatMoney(partyTotal(rows, party), tour.currency);

  async function send(body: BookingCreate, key: string) {
    const result = await api.book(body, key);
    if (result.ok) return props.onBooked(result.value);
    const { failure: why } = result;
    if (why.kind === 'conflict') {
      inFlight.current = false;
      return props.onSoldOut();
    }
    if (why.kind === 'busy') {
      timer.current = setTimeout(() => void send(body, key), BUSY_RETRY_MS);
      return;
    }
    if (why.kind === 'rate_limited') {
      // Say so (once: a ticking alert would be read out every second), wait, then send the same
      // attempt again: the same key, so it cannot book twice.
      setFailure(why);
      timer.current = setTimeout(() => void send(body, key), why.retryAfterSeconds * 1000);
      return;
    }
    inFlight.current = false;
    setPending(false);
    setFailure(why);
  }

  function submit(event: Event) {
    event.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    setFailure(null);
    const body: BookingCreate = {
      availabilityId: departure.id,
      customer: {
        name: contact.name.trim(),
        email: contact.email.trim(),
        ...(contact.phone.trim() && { phone: contact.phone.trim() }),
      },
      participants: participantsOf(rows, party, names),
    };
    const text = JSON.stringify(body);
    if (attempt.current?.body !== text) attempt.current = { key: newIdempotencyKey(), body: text };
    void send(body, attempt.current.key);
  }

  const setName = (i: number, value: string) =>
    props.onNames(seats.map((_, j) => (j === i ? value : (names[j] ?? ''))));
  const setContact = (field: keyof Contact, value: string) => props.onContact({ ...contact, [field]: value });

  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>{strings.chooseGuests}</legend>
        {seats.map(([row, n], i) => {
          const id = `participant-${i}`;
          return (
            <div key={id}>
              <label for={id}>
                {strings.participantName(rows[row]?.ticketTypeId ? (rows[row]?.name ?? null) : null, n)}
              </label>
              <input
                id={id}
                type="text"
                required
                maxLength={200}
                autoComplete={i === 0 ? 'name' : 'off'}
                value={names[i] ?? ''}
                onInput={(e) => setName(i, e.currentTarget.value)}
              />
            </div>
          );
        })}
      </fieldset>
      <fieldset>
        <legend>{strings.contact}</legend>
        <label for="contact-name">{strings.contactName}</label>
        <input
          id="contact-name"
          type="text"
          required
          maxLength={200}
          autoComplete="name"
          value={contact.name}
          onInput={(e) => setContact('name', e.currentTarget.value)}
        />
        <label for="contact-email">{strings.email}</label>
        <input
          id="contact-email"
          type="email"
          required
          maxLength={320}
          autoComplete="email"
          aria-describedby="contact-email-hint"
          value={contact.email}
          onInput={(e) => setContact('email', e.currentTarget.value)}
        />
        <p class="muted" id="contact-email-hint">
          {strings.emailHint}
        </p>
        <label for="contact-phone">{strings.phone}</label>
        <input
          id="contact-phone"
          type="tel"
          maxLength={50}
          autoComplete="tel"
          value={contact.phone}
          onInput={(e) => setContact('phone', e.currentTarget.value)}
        />
      </fieldset>
      <h3>{strings.summary}</h3>
      <dl>
        <dt>{tour.name}</dt>
        <dd>
          {formatDay(date)}, {formatTime(departure.startsAt, tour.timeZone)}{' '}
          {zoneName(departure.startsAt, tour.timeZone)}
        </dd>
        {rows.map((row, i) =>
          (party[i] ?? 0) > 0 ? (
            <Fragment key={row.ticketTypeId ?? 'seat'}>
              <dt>{strings.countOf(party[i] ?? 0, row.name)}</dt>
              <dd>{formatMoney(row.price * (party[i] ?? 0), tour.currency)}</dd>
            </Fragment>
          ) : null,
        )}
      </dl>
      <p class="total">{strings.total(total)}</p>
      <p class="muted">{strings.holdNote(tour.publicHoldMinutes)}</p>
      {failure && <FailureMessage failure={failure} />}
      <p role="status" aria-live="polite" class="muted">
        {pending && failure?.kind !== 'rate_limited' ? strings.booking : ''}
      </p>
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onBack} disabled={pending}>
          {strings.back}
        </button>
        <button type="submit" aria-disabled={pending}>
          {strings.bookAndPay(total)}
        </button>
      </div>
    </form>
  );
}
