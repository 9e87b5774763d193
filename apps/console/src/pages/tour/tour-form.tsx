import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, idempotencyKey, type Schemas } from '../../api';
import { ErrorNotice, Success } from '../../components/feedback';
import { fieldError, SelectField, TextField } from '../../components/field';
import { PageHeader } from '../../components/page';
import { moneyInput, parseMoney } from '../../format';
import type { Tour } from '../../queries';
import { navigate } from '../../router';
import { useWorkspace } from '../../workspace';
import { rowOf, type TicketRow, TicketTypeRow } from './ticket-types';

/** A new tour, or the tour's details, ticket types, cancellation policy and publishing, saved at once. */
export function TourForm({ tour }: { tour?: Tour }) {
  const { workspaceId } = useWorkspace();
  const queryClient = useQueryClient();
  const [form, setForm] = useState(() => ({
    name: tour?.name ?? '',
    description: tour?.description ?? '',
    durationMinutes: String(tour?.durationMinutes ?? 120),
    currency: tour?.currency ?? 'EUR',
    timeZone: tour?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    capacity: String(tour?.capacity ?? 12),
    basePrice: tour ? moneyInput(tour.basePrice, tour.currency) : '',
    meetingPoint: tour?.meetingPoint ?? '',
    isPublic: tour?.isPublic ?? false,
    cutoffHours: String(tour?.cancellationPolicy.cutoffHours ?? 24),
    refund: tour?.cancellationPolicy.refund ?? 'FULL',
    refundPercent: String(tour?.cancellationPolicy.refundPercent ?? 50),
  }));
  const [tickets, setTickets] = useState<TicketRow[]>(() =>
    (tour?.ticketTypes ?? []).map((t) => ({
      ...rowOf(t),
      price: moneyInput(t.price, tour?.currency ?? 'EUR'),
    })),
  );
  const [problem, setProblem] = useState<string>();
  const set = (key: keyof typeof form) => (value: string | boolean) =>
    setForm((f) => ({ ...f, [key]: value }));

  const save = useMutation({
    mutationFn: async (body: Schemas['TourCreate']) => {
      if (!tour)
        return (
          await call(
            api.POST('/workspaces/{workspaceId}/tours', {
              params: { path: { workspaceId }, header: { 'Idempotency-Key': idempotencyKey() } },
              body,
            }),
          )
        ).data;
      return (
        await call(
          api.PATCH('/workspaces/{workspaceId}/tours/{tourId}', {
            params: { path: { workspaceId, tourId: tour.id } },
            body,
          }),
        )
      ).data;
    },
    onSuccess: (saved) => {
      queryClient.setQueryData([workspaceId, 'tour', saved.id], saved);
      void queryClient.invalidateQueries({ queryKey: [workspaceId, 'tours'] });
      if (!tour) navigate(`/${workspaceId}/tours/${saved.id}`, { replace: true });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const money = (text: string) => parseMoney(text, form.currency);
    const types = tickets.map((t) => ({ ...t, minor: money(t.price) }));
    const firstPrice = types[0]?.minor;
    const basePrice = form.basePrice ? money(form.basePrice) : (firstPrice ?? null);
    if (basePrice === null || types.some((t) => t.minor === null)) {
      setProblem('Prices are amounts such as 40 or 12.50.');
      return;
    }
    setProblem(undefined);
    save.mutate({
      name: form.name,
      description: form.description,
      durationMinutes: Number(form.durationMinutes),
      currency: form.currency.toUpperCase(),
      timeZone: form.timeZone,
      capacity: Number(form.capacity),
      basePrice,
      meetingPoint: form.meetingPoint || null,
      isPublic: form.isPublic,
      cancellationPolicy: {
        cutoffHours: Number(form.cutoffHours),
        refund: form.refund,
        ...(form.refund === 'PARTIAL' && { refundPercent: Number(form.refundPercent) }),
      },
      ticketTypes: types.map((t) => ({
        ...(t.id && { id: t.id }),
        name: t.name,
        ageBand: t.ageBand,
        price: t.minor as number,
        requiresAdult: t.requiresAdult,
        maxPerBooking: t.maxPerBooking ? Number(t.maxPerBooking) : null,
      })),
    });
  };

  const err = save.error;
  return (
    <>
      <PageHeader title={tour ? tour.name : 'New tour'} />
      <form onSubmit={submit} className="form" aria-label="Tour">
        <fieldset>
          <legend className="visually-hidden">Tour details</legend>
          {save.isSuccess && <Success>Saved.</Success>}
          <ErrorNotice error={err} />
          {problem && (
            <p className="notice notice-error" role="alert">
              {problem}
            </p>
          )}
          <div className="grid">
            <TextField
              label="Name"
              required
              value={form.name}
              onChange={(e) => set('name')(e.target.value)}
              field="name"
              error={err}
            />
            <TextField
              label="Duration (minutes)"
              type="number"
              min={1}
              required
              value={form.durationMinutes}
              onChange={(e) => set('durationMinutes')(e.target.value)}
              field="durationMinutes"
              error={err}
            />
            <TextField
              label="Seats per departure"
              type="number"
              min={1}
              required
              value={form.capacity}
              onChange={(e) => set('capacity')(e.target.value)}
              field="capacity"
              error={err}
            />
            <TextField
              label="Currency"
              hint="ISO code: EUR, USD, GBP…"
              required
              maxLength={3}
              value={form.currency}
              onChange={(e) => set('currency')(e.target.value)}
              field="currency"
              error={err}
            />
            <SelectField
              label="Time zone"
              options={Intl.supportedValuesOf('timeZone').map((zone) => [zone, zone] as const)}
              value={form.timeZone}
              onChange={(e) => set('timeZone')(e.target.value)}
              field="timeZone"
              error={err}
            />
            <TextField
              label="Base price"
              hint="Per seat when the tour has no ticket types; empty: the first ticket type’s."
              inputMode="decimal"
              value={form.basePrice}
              onChange={(e) => set('basePrice')(e.target.value)}
              field="basePrice"
              error={err}
            />
            <TextField
              label="Meeting point"
              value={form.meetingPoint}
              onChange={(e) => set('meetingPoint')(e.target.value)}
              field="meetingPoint"
              error={err}
            />
          </div>
          <div className="field">
            <label htmlFor="tour-description">Description</label>
            <textarea
              id="tour-description"
              rows={3}
              value={form.description}
              onChange={(e) => set('description')(e.target.value)}
            />
          </div>

          <fieldset className="subform">
            <legend>Ticket types</legend>
            {fieldError(err, 'ticketTypes') && (
              <p className="field-error">{fieldError(err, 'ticketTypes')}</p>
            )}
            {tickets.length === 0 && (
              <p className="muted">No ticket types: every seat sells at the base price.</p>
            )}
            {tickets.map((t, i) => (
              <TicketTypeRow
                key={t.key}
                index={i}
                row={t}
                error={err}
                onChange={(row) => setTickets((rows) => rows.map((r, j) => (j === i ? row : r)))}
                onRemove={() => setTickets((rows) => rows.filter((_, j) => j !== i))}
              />
            ))}
            <button
              type="button"
              onClick={() =>
                setTickets((rows) => [
                  ...rows,
                  {
                    key: crypto.randomUUID(),
                    name: '',
                    ageBand: rows.length ? 'CHILD' : 'ADULT',
                    price: '',
                    requiresAdult: rows.length > 0,
                    maxPerBooking: '',
                  },
                ])
              }
            >
              Add ticket type
            </button>
          </fieldset>

          <fieldset className="subform">
            <legend>Cancellation policy</legend>
            <div className="grid">
              <TextField
                label="Guests may cancel until (hours before)"
                type="number"
                min={0}
                value={form.cutoffHours}
                onChange={(e) => set('cutoffHours')(e.target.value)}
                field="cancellationPolicy.cutoffHours"
                error={err}
              />
              <SelectField
                label="Refund"
                options={[
                  ['FULL', 'Full refund'],
                  ['PARTIAL', 'Part of it'],
                  ['NONE', 'No refund'],
                ]}
                value={form.refund}
                onChange={(e) => set('refund')(e.target.value)}
                field="cancellationPolicy.refund"
                error={err}
              />
              {form.refund === 'PARTIAL' && (
                <TextField
                  label="Refund percent"
                  type="number"
                  min={0}
                  max={100}
                  value={form.refundPercent}
                  onChange={(e) => set('refundPercent')(e.target.value)}
                  field="cancellationPolicy.refundPercent"
                  error={err}
                />
              )}
            </div>
          </fieldset>

          <div className="check">
            <input
              id="tour-public"
              type="checkbox"
              checked={form.isPublic}
              onChange={(e) => set('isPublic')(e.target.checked)}
            />
            <label htmlFor="tour-public">Published: guests can see and book it</label>
          </div>
          <p className="button-row">
            <button type="submit" className="button-primary" disabled={save.isPending}>
              {tour ? 'Save tour' : 'Create tour'}
            </button>
          </p>
        </fieldset>
      </form>
    </>
  );
}
