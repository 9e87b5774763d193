import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, call, idempotencyKey, type Schemas } from '../api';
import { ErrorNotice, Loading, Success } from '../components/feedback';
import { fieldError, SelectField, TextField } from '../components/field';
import { PageHeader, Section } from '../components/page';
import { ScheduleForm, Schedules } from '../components/schedules';
import { formatMoney, moneyInput, parseMoney } from '../format';
import { canWrite } from '../permissions';
import type { Tour } from '../queries';
import { navigate } from '../router';
import { useWorkspace } from '../workspace';

type AgeBand = Schemas['TicketType']['ageBand'];
const AGE_BANDS: readonly AgeBand[] = ['ADULT', 'CHILD', 'INFANT', 'SENIOR', 'YOUTH', 'STUDENT', 'OTHER'];
const words = (value: string) => value.charAt(0) + value.slice(1).toLowerCase();

/** One tour: its details, ticket types and prices, cancellation policy, publishing and schedules. */
export function TourPage({ tourId }: { tourId: string }) {
  const { workspaceId, role } = useWorkspace();
  const isNew = tourId === 'new';
  const tour = useQuery({
    queryKey: [workspaceId, 'tour', tourId],
    enabled: !isNew,
    queryFn: async () =>
      (
        await call(
          api.GET('/workspaces/{workspaceId}/tours/{tourId}', { params: { path: { workspaceId, tourId } } }),
        )
      ).data,
  });
  const editable = canWrite(role, 'tours');
  if (isNew)
    return editable ? (
      <TourForm key="new" />
    ) : (
      <>
        <PageHeader title="New tour" />
        <p>Only admins create tours.</p>
      </>
    );
  if (tour.isPending) return <Loading what="Loading the tour" />;
  if (tour.isError) return <ErrorNotice error={tour.error} />;
  return (
    <>
      {editable ? <TourForm key={tour.data.id} tour={tour.data} /> : <TourFacts tour={tour.data} />}
      <Section title="Schedules">
        {canWrite(role, 'departures') && <ScheduleForm tour={tour.data} />}
        <Schedules tour={tour.data} />
      </Section>
    </>
  );
}

interface TicketRow {
  key: string;
  id?: string;
  name: string;
  ageBand: AgeBand;
  price: string;
  requiresAdult: boolean;
  maxPerBooking: string;
}

const rowOf = (t: Schemas['TicketType']): TicketRow => ({
  key: t.id,
  id: t.id,
  name: t.name,
  ageBand: t.ageBand,
  price: '',
  requiresAdult: t.requiresAdult,
  maxPerBooking: t.maxPerBooking === null ? '' : String(t.maxPerBooking),
});

const REFUNDS = { FULL: 'full refund', PARTIAL: 'part refunded', NONE: 'no refund' } as const;

/** The tour as a member who cannot change it sees it. */
function TourFacts({ tour }: { tour: Tour }) {
  const policy = tour.cancellationPolicy;
  return (
    <>
      <PageHeader title={tour.name} />
      {tour.description && <p>{tour.description}</p>}
      <dl className="facts">
        <div>
          <dt>Published</dt>
          <dd>{tour.isPublic ? 'Yes: guests can book it' : 'No'}</dd>
        </div>
        <div>
          <dt>Duration and seats</dt>
          <dd>
            {tour.durationMinutes} min · {tour.capacity} seats
          </dd>
        </div>
        <div>
          <dt>Time zone</dt>
          <dd>{tour.timeZone}</dd>
        </div>
        <div>
          <dt>Meeting point</dt>
          <dd>{tour.meetingPoint ?? 'told later'}</dd>
        </div>
        <div>
          <dt>Prices</dt>
          <dd>
            {tour.ticketTypes.length
              ? tour.ticketTypes.map((t) => `${t.name} ${formatMoney(t.price, tour.currency)}`).join(' · ')
              : `${formatMoney(tour.basePrice, tour.currency)} a seat`}
          </dd>
        </div>
        <div>
          <dt>Cancellation</dt>
          <dd>
            until {policy.cutoffHours} h before, {REFUNDS[policy.refund]}
            {policy.refund === 'PARTIAL' && ` (${policy.refundPercent} %)`}
          </dd>
        </div>
      </dl>
    </>
  );
}

function TourForm({ tour }: { tour?: Tour }) {
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

function TicketTypeRow({
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
