import { type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, useId } from 'react';
import { ApiError } from '../api';

const ISSUES: Record<string, string> = {
  required: 'Required.',
  blank: 'Required.',
  too_short: 'Too short.',
  too_long: 'Too long.',
  too_large: 'Too large.',
  out_of_range: 'Out of the allowed range.',
  not_integer: 'Must be a whole number.',
  invalid_type: 'Not the expected kind of value.',
  invalid_enum: 'Not one of the allowed values.',
  invalid_email: 'Not an e-mail address.',
  invalid_phone: 'Not a phone number.',
  invalid_date: 'Not a date.',
  invalid_date_time: 'Not a date and time.',
  invalid_time: 'Not a time (HH:MM).',
  invalid_slug: 'Lowercase letters, digits and dashes only.',
  invalid_currency: 'Not a currency code (EUR, USD...).',
  invalid_value: 'Not an allowed value.',
  duplicate: 'Given twice.',
  unknown_field: 'Not a field of this form.',
  already_exists: 'Already taken.',
  not_found: 'Not found.',
  before_starts_on: 'Must be on or after the first day.',
  too_far_ahead: 'Too far ahead (at most 18 months).',
  below_booked_seats: 'Fewer than the seats already booked.',
  invalid_transition: 'This status cannot follow the current one.',
  departure_started: 'The departure has started.',
  departure_not_started: 'The departure has not started yet.',
  exceeds_refundable: 'More than what is left to refund.',
  requires_cancelled: 'Only with a cancellation.',
  insufficient_seats: 'Not enough seats left.',
  max_capacity_exceeded: 'More than the seats left.',
  ticket_type_in_use: 'A booking still sells this ticket type.',
  guide_double_booked: 'Already on another departure at that time.',
  driver_double_booked: 'Already on another departure at that time.',
  vehicle_double_booked: 'Already on another departure at that time.',
  guide_unavailable_time_off: 'On time off then.',
  driver_unavailable_time_off: 'On time off then.',
  vehicle_unavailable: 'Not in service.',
  vehicle_too_small: 'Too few seats for this departure.',
  not_a_guide: 'Not a guide of this workspace.',
  not_sold: 'Not sold on this tour.',
  below_minimum: 'Fewer than this ticket type’s minimum.',
  above_maximum: 'More than this ticket type’s maximum.',
  adult_required: 'Needs an adult on the booking.',
};

/** The issue the server named for a field, in words; undefined when it named none. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const issue = error.fieldIssue(field);
  if (!issue) return undefined;
  return ISSUES[issue] ?? `${issue.replaceAll('_', ' ')}.`;
}

interface FieldFrame {
  label: string;
  /** The field's path in the request body (`capacity`, `ticketTypes[0].price`). */
  field?: string;
  error?: unknown;
  hint?: ReactNode;
}

function useFieldIds(props: FieldFrame) {
  const id = useId();
  const message = props.field ? fieldError(props.error, props.field) : undefined;
  const describedBy = [props.hint && `${id}-hint`, message && `${id}-error`].filter(Boolean).join(' ');
  return { id, message, describedBy: describedBy || undefined };
}

function Frame({
  id,
  label,
  hint,
  message,
  children,
}: FieldFrame & { id: string; message?: string; children: ReactNode }) {
  return (
    <div className={`field${message ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {message && (
        <p className="field-error" id={`${id}-error`}>
          {message}
        </p>
      )}
    </div>
  );
}

/** A labelled input with its hint and the server's issue for it underneath. */
export function TextField({
  label,
  field,
  error,
  hint,
  ...input
}: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const ids = useFieldIds({ label, field, error, hint });
  return (
    <Frame id={ids.id} label={label} hint={hint} {...(ids.message && { message: ids.message })}>
      <input
        id={ids.id}
        aria-invalid={ids.message ? true : undefined}
        aria-describedby={ids.describedBy}
        {...input}
      />
    </Frame>
  );
}

/** A labelled select; `options` are value and text pairs. */
export function SelectField({
  label,
  field,
  error,
  hint,
  options,
  ...select
}: FieldFrame &
  SelectHTMLAttributes<HTMLSelectElement> & { options: readonly (readonly [string, string])[] }) {
  const ids = useFieldIds({ label, field, error, hint });
  return (
    <Frame id={ids.id} label={label} hint={hint} {...(ids.message && { message: ids.message })}>
      <select
        id={ids.id}
        aria-invalid={ids.message ? true : undefined}
        aria-describedby={ids.describedBy}
        {...select}
      >
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </Frame>
  );
}
