import { type FormEvent, useState } from 'react';
import { api, call, type Schemas } from '../../api';
import { ErrorNotice, Success } from '../../components/feedback';
import { SelectField, TextField } from '../../components/field';
import { Section } from '../../components/page';
import { formatMoney, parseMoney } from '../../format';
import type { Booking } from '../../queries';
import { useWorkspace } from '../../workspace';
import { NEXT, type Status, words } from './status-words';
import { useBookingChange } from './use-booking-change';

/** A status change the booking's status allows, with a reason, a refund on cancel and an e-mail. */
export function StatusChange({ booking: b }: { booking: Booking }) {
  const { workspaceId } = useWorkspace();
  const choices = NEXT[b.status];
  const [status, setStatus] = useState<Status>(choices[0] as Status);
  const [reason, setReason] = useState('');
  const [notify, setNotify] = useState(false);
  const [refund, setRefund] = useState('');
  const refundable = b.amountPaid - b.amountRefunded;
  const change = useBookingChange(b, async (body: Schemas['BookingStatusChange']) =>
    call(
      api.POST('/workspaces/{workspaceId}/bookings/{bookingId}/status', {
        params: { path: { workspaceId, bookingId: b.id } },
        body,
      }),
    ),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const refundAmount = status === 'CANCELLED' && refund ? parseMoney(refund, b.currency) : null;
    change.mutate({
      status,
      ...(reason && { reason }),
      notifyCustomer: notify,
      ...(refundAmount !== null && { refundAmount }),
    });
  };
  return (
    <Section title="Change status">
      <form onSubmit={submit} className="form" aria-label="Change status">
        {change.isSuccess && <Success>Status changed.</Success>}
        <ErrorNotice error={change.error} />
        <div className="grid">
          <SelectField
            label="New status"
            options={choices.map((s) => [s, words(s)] as const)}
            value={status}
            onChange={(e) => setStatus(e.target.value as Status)}
            field="status"
            error={change.error}
          />
          <TextField
            label="Reason"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            field="reason"
            error={change.error}
          />
          {status === 'CANCELLED' && refundable > 0 && (
            <TextField
              label={`Refund now (${b.currency})`}
              hint={`Up to ${formatMoney(refundable, b.currency)}; empty: none.`}
              inputMode="decimal"
              value={refund}
              onChange={(e) => setRefund(e.target.value)}
              field="refundAmount"
              error={change.error}
            />
          )}
        </div>
        <div className="check">
          <input
            id="notify-customer"
            type="checkbox"
            checked={notify}
            onChange={(e) => setNotify(e.target.checked)}
          />
          <label htmlFor="notify-customer">E-mail the customer about it</label>
        </div>
        <button type="submit" className="button-primary" disabled={change.isPending}>
          Change status
        </button>
      </form>
    </Section>
  );
}
