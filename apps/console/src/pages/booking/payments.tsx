/** Money on a booking: a payment link for the balance, and refunds of what was paid. */
import { type FormEvent, useState } from 'react';
import { api, call, idempotencyKey, type Schemas } from '../../api';
import { ErrorNotice, Success } from '../../components/feedback';
import { TextField } from '../../components/field';
import { Section } from '../../components/page';
import { formatMoney, moneyInput, parseMoney } from '../../format';
import type { Booking } from '../../queries';
import { useWorkspace } from '../../workspace';
import { useBookingChange } from './use-booking-change';

export function PaymentLink({ booking: b }: { booking: Booking }) {
  const { workspaceId } = useWorkspace();
  const link = useBookingChange(
    b,
    async () =>
      (
        await call(
          api.POST('/workspaces/{workspaceId}/bookings/{bookingId}/payment-link', {
            params: { path: { workspaceId, bookingId: b.id } },
          }),
        )
      ).data,
  );
  return (
    <Section title="Payment link">
      <ErrorNotice error={link.error} />
      {link.data ? (
        <p>
          Send this link for {formatMoney(link.data.amount, b.currency)}:{' '}
          <a href={link.data.url} target="_blank" rel="noreferrer">
            {link.data.url}
          </a>
        </p>
      ) : (
        <button type="button" onClick={() => link.mutate(undefined)} disabled={link.isPending}>
          Create payment link for the balance
        </button>
      )}
    </Section>
  );
}

export function Refund({ booking: b }: { booking: Booking }) {
  const { workspaceId } = useWorkspace();
  const left = b.amountPaid - b.amountRefunded;
  const [amount, setAmount] = useState(moneyInput(left, b.currency));
  const [reason, setReason] = useState('');
  const refund = useBookingChange(b, async (body: Schemas['RefundCreate']) =>
    call(
      api.POST('/workspaces/{workspaceId}/bookings/{bookingId}/refunds', {
        params: { path: { workspaceId, bookingId: b.id }, header: { 'Idempotency-Key': idempotencyKey() } },
        body,
      }),
    ),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = parseMoney(amount, b.currency);
    refund.mutate({ ...(minor !== null && { amount: minor }), ...(reason && { reason }) });
  };
  return (
    <Section title="Refund">
      <form onSubmit={submit} className="form" aria-label="Refund">
        {refund.isSuccess && <Success>Refund made.</Success>}
        <ErrorNotice error={refund.error} />
        <div className="grid">
          <TextField
            label={`Amount (${b.currency})`}
            hint={`Up to ${formatMoney(left, b.currency)}.`}
            inputMode="decimal"
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            field="amount"
            error={refund.error}
          />
          <TextField
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            field="reason"
            error={refund.error}
          />
        </div>
        <button type="submit" className="button-danger" disabled={refund.isPending}>
          Refund
        </button>
      </form>
    </Section>
  );
}
