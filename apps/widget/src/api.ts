import { type components, createTravelOpsClient } from '@travelops/client';

type Schemas = components['schemas'];
/** The widget reads tours on the public endpoints only: without their capacity. */
export type Tour = Schemas['PublicTour'];
export type TicketType = Schemas['TicketType'];
export type CalendarDay = Schemas['CalendarDay'];
export type PublicDeparture = Schemas['PublicDeparture'];
export type BookingCreate = Schemas['BookingCreate'];
export type ParticipantInput = Schemas['ParticipantInput'];
export type PublicBooking = Schemas['PublicBooking'];
type ErrorDetail = NonNullable<Schemas['ErrorEnvelope']['error']['details']>[number];

/** What went wrong, as the widget acts on it (the spec's error table). */
export type ApiFailure =
  /** 409: sold out meanwhile; re-read availability and ask again. */
  | { kind: 'conflict' }
  /** 409 `idempotency_key_in_use`: the same attempt is still running; ask again shortly, same key. */
  | { kind: 'busy' }
  /** 429: wait `Retry-After` seconds, then try the same request again. */
  | { kind: 'rate_limited'; retryAfterSeconds: number }
  /** 400 or 422: the request needs changing; `details` name the fields. */
  | { kind: 'invalid'; details: ErrorDetail[] }
  | { kind: 'not_found' }
  | { kind: 'server' }
  | { kind: 'network' };

export type ApiResult<T> = { ok: true; value: T } | { ok: false; failure: ApiFailure };

/** The failure an answer means; `retryAfter` is the header's text. */
export function failureOf(
  status: number,
  body: { error?: { details?: ErrorDetail[] } } | undefined,
  retryAfter: string | null,
): ApiFailure {
  if (status === 409) {
    const busy = body?.error?.details?.some((d) => d.issue === 'idempotency_key_in_use');
    return busy ? { kind: 'busy' } : { kind: 'conflict' };
  }
  if (status === 429) {
    const seconds = Number(retryAfter);
    return { kind: 'rate_limited', retryAfterSeconds: Number.isFinite(seconds) && seconds > 0 ? seconds : 1 };
  }
  if (status === 400 || status === 422) return { kind: 'invalid', details: body?.error?.details ?? [] };
  if (status === 404) return { kind: 'not_found' };
  return { kind: 'server' };
}

async function settle<T>(
  call: Promise<{ data?: { data: T }; error?: unknown; response: Response }>,
): Promise<ApiResult<T>> {
  try {
    const { data, error, response } = await call;
    if (data) return { ok: true, value: data.data };
    return {
      ok: false,
      failure: failureOf(
        response.status,
        error as { error?: { details?: ErrorDetail[] } },
        response.headers.get('Retry-After'),
      ),
    };
  } catch {
    return { ok: false, failure: { kind: 'network' } };
  }
}

export type WidgetApi = ReturnType<typeof createWidgetApi>;

/**
 * The public operations the widget calls, through the typed client (@travelops/client, generated
 * from /openapi.json). Never with credentials: the widget runs on the operator's site and needs none.
 */
export function createWidgetApi(baseUrl: string, workspaceSlug: string) {
  const client = createTravelOpsClient({ baseUrl, credentials: 'omit' });
  const workspace = { workspaceSlug };
  return {
    listTours: () => settle(client.GET('/public/{workspaceSlug}/tours', { params: { path: workspace } })),
    getTour: (tourSlug: string) =>
      settle(
        client.GET('/public/{workspaceSlug}/tours/{tourSlug}', {
          params: { path: { ...workspace, tourSlug } },
        }),
      ),
    calendar: (tourSlug: string, from: string, to: string) =>
      settle(
        client.GET('/public/{workspaceSlug}/tours/{tourSlug}/calendar', {
          params: { path: { ...workspace, tourSlug }, query: { from, to } },
        }),
      ),
    departures: (tourSlug: string, from: string, to: string) =>
      settle(
        client.GET('/public/{workspaceSlug}/tours/{tourSlug}/availability', {
          params: { path: { ...workspace, tourSlug }, query: { from, to } },
        }),
      ),
    /** One logical booking is one `Idempotency-Key`: a repeat (double click, 429 retry) books once. */
    book: (body: BookingCreate, idempotencyKey: string) =>
      settle(
        client.POST('/public/{workspaceSlug}/bookings', {
          params: { path: workspace, header: { 'Idempotency-Key': idempotencyKey } },
          body,
        }),
      ),
  };
}
