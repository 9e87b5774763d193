import { type components, createTravelOpsClient, type TokenRole } from '@travelops/client';

export type Schemas = components['schemas'];
/** An API key's role: a member's, or RESELLER (sells through the OCTO endpoints only). */
export type { TokenRole };
export type Role = Exclude<TokenRole, 'RESELLER'>;
type ErrorDetail = { field: string; issue: string };

/**
 * The CSRF token of the session (decisions §6), kept in memory only: a reload asks
 * `GET /auth/session` for it again. No token ever goes to browser storage.
 */
let csrfToken: string | undefined;
export const setCsrfToken = (token: string | undefined) => {
  csrfToken = token;
};

const sessionEndedListeners = new Set<() => void>();
/** Called when the API answers 401 to a signed-in call: the session expired or was ended. */
export function onSessionEnded(listener: () => void): () => void {
  sessionEndedListeners.add(listener);
  return () => sessionEndedListeners.delete(listener);
}

/** The typed client on this origin: the session cookie goes along, the CSRF token on writes. */
export const api = createTravelOpsClient({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use({
  onRequest({ request }) {
    if (csrfToken && !['GET', 'HEAD'].includes(request.method))
      request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
  onResponse({ request, response }) {
    // A wrong password is a 401 too, but not the end of a session.
    if (response.status === 401 && !new URL(request.url).pathname.startsWith('/auth/login')) {
      for (const listener of sessionEndedListeners) listener();
    }
    return response;
  },
});

/** The API's error envelope as an exception, so queries and mutations can throw it. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: readonly ErrorDetail[];
  readonly requestId: string | undefined;
  constructor(status: number, envelope: unknown) {
    const error = (envelope as { error?: Partial<Schemas['Error']> } | undefined)?.error;
    super(error?.message ?? `The server answered ${status}.`);
    this.status = status;
    this.code = error?.code ?? 'INTERNAL_ERROR';
    this.details = error?.details ?? [];
    this.requestId = error?.requestId;
  }
  /** The issue the server named for a field (`capacity`, `ticketTypes[1].price`...). */
  fieldIssue(field: string): string | undefined {
    return this.details.find((detail) => detail.field === field)?.issue;
  }
}

/** Unwraps an openapi-fetch answer: its data, or the error envelope thrown as an ApiError. */
export async function call<T>(
  pending: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  let answer: { data?: T; error?: unknown; response: Response };
  try {
    answer = await pending;
  } catch {
    throw new ApiError(0, {
      error: { code: 'INTERNAL_ERROR', message: 'The server could not be reached. Check the connection.' },
    });
  }
  if (answer.error !== undefined || !answer.response.ok)
    throw new ApiError(answer.response.status, answer.error);
  return answer.data as T;
}

/** Every page of a list (the console's lists are small: a day, a week, a workspace's tours). */
export async function collect<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ data: T[]; pagination: Schemas['Pagination'] }>,
  maxPages = 20,
): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const answer = await fetchPage(cursor);
    all.push(...answer.data);
    if (!answer.pagination.hasMore || !answer.pagination.nextCursor) break;
    cursor = answer.pagination.nextCursor;
  }
  return all;
}

/** A fresh Idempotency-Key for one logical creation (reused if the same attempt is retried). */
export const idempotencyKey = () => crypto.randomUUID();
