import type {
  ApiTokenStore,
  MemberStore,
  SessionStore,
  TwoFactorStore,
  WorkspaceStore,
} from '@travelops/domain/access';
import type { BookingStores, ResellerBookingStore } from '@travelops/domain/bookings';
import type { CalendarMemo, CatalogStores } from '@travelops/domain/catalog';
import type { CrmStores } from '@travelops/domain/crm';
import type { IdempotencyStore } from '@travelops/domain/idempotency';
import type { GuestEmailStore } from '@travelops/domain/notifications';
import type { OperationsStores } from '@travelops/domain/operations';
import type { PaymentEventReader, PaymentProvider, ProviderEventStore } from '@travelops/domain/payments';
import type { Clock, Logger, UnitOfWork } from '@travelops/domain/shared';
import type { EndpointUrlCheck, WebhookStores } from '@travelops/domain/webhooks';
import type { ConcurrencyLimiter } from './concurrency.js';
import type { RateLimiter } from './rate-limit.js';

export type ReadinessCheck = () => Promise<void>;

export interface HttpConfig {
  /** Base of links the service hands out, e.g. checkout URLs. */
  publicBaseUrl: string;
  /** Express `trust proxy` setting: which proxies' X-Forwarded-For to believe. */
  trustProxy?: boolean | number | string | string[];
  /** Largest accepted JSON body in bytes. */
  bodyLimitBytes?: number;
  /** Unpaid public holds one client (IP) may have on one departure at once (default 2). */
  publicHoldsPerClient?: number;
  /** Confirmation e-mails of free public bookings to one address per workspace and hour (default 5). */
  publicConfirmationsPerAddressPerHour?: number;
  /**
   * Serve the sandbox provider's pages (`/sandbox/*`); off unless asked: where real money is
   * taken, nobody may mark a booking paid by pressing a button.
   */
  sandbox?: boolean;
  /**
   * Serve `/dev/mail`, the guest e-mails kept while no SMTP server is configured; never in
   * production (it shows every workspace's messages, guest links included).
   */
  devMail?: boolean;
  /** The address guest e-mails come from (MAIL_FROM), shown on `/dev/mail`. */
  mailFrom?: string;
}

/** The stores of every context the routes reach (through use cases, never directly). */
export type AppStores = BookingStores &
  CatalogStores &
  CrmStores &
  OperationsStores &
  WebhookStores & {
    idempotency: IdempotencyStore;
    apiTokens: ApiTokenStore;
    sessions: SessionStore;
    twoFactor: TwoFactorStore;
    members: MemberStore;
    workspaces: WorkspaceStore;
    providerEvents: ProviderEventStore;
    resellerBookings: ResellerBookingStore;
    guestEmails: GuestEmailStore;
  };

/** Prometheus metrics (apps/api keeps prom-client); the adapter only reports and serves them. */
export interface HttpMetrics {
  /** The bearer secret a scraper sends (`METRICS_TOKEN`). */
  token: string;
  /** One finished request: its route template (never the raw path) and status. */
  observeRequest(request: { method: string; route: string; status: number; seconds: number }): void;
  /** The Prometheus text exposition. */
  render(): Promise<{ contentType: string; body: string }>;
}

/** Everything the HTTP adapter needs, handed over by the composition root. */
export interface HttpDeps {
  /** On the pool: each request opens its own transaction from it (see register.ts). */
  uow: UnitOfWork<AppStores>;
  clock: Clock;
  /** Where guests pay (the built-in sandbox, or a real provider's adapter). */
  payments: PaymentProvider;
  /** The real provider's webhooks (`POST /stripe/webhooks`); absent with the sandbox. */
  paymentEvents?: PaymentEventReader;
  /** Whether a webhook endpoint URL may be registered (scheme; private addresses in production). */
  checkWebhookUrl: EndpointUrlCheck;
  logger: Logger;
  /** Key that signs pagination cursors; shared by every API instance. */
  cursorSecret: string;
  /** Key that derives each session's CSRF token; shared by every API instance. */
  csrfSecret: string;
  /** Counters of decisions §7, shared by every instance (or in-process). */
  rateLimiter: RateLimiter;
  /** Slots of expensive work per credential (routes marked `expensive`, OCTO availability). */
  concurrencyLimiter: ConcurrencyLimiter;
  /** Named dependency checks for /readyz; each rejects when its dependency is unreachable. */
  readiness: Record<string, ReadinessCheck>;
  config: HttpConfig;
  /** The booking widget's bundle (apps/widget), served at `/widget.js`; absent: 404, saying it is not configured. */
  widgetScript?: string | undefined;
  /** Absent (no `METRICS_TOKEN`): `/metrics` is not served. */
  metrics?: HttpMetrics;
  /** The operator console's built files (apps/console's `dist/`), served under `/app/`; absent: 404, saying it is not configured. */
  consoleDir?: string | undefined;
  /** Public calendars kept by this instance (each call still reads their version); absent: `createApp` makes one. */
  calendarMemo?: CalendarMemo;
}

/**
 * The unit of work as a route handler holds it: something to hand to a use case, never to open.
 * `stores` is `never` here, so `use.uow.stores.bookings` does not compile in a handler (the
 * house has no SQL or store calls in routes); a use case still accepts it as its `UnitOfWork<S>`.
 */
export type HandlerUnitOfWork = UnitOfWork<AppStores> & { readonly stores: never };

/**
 * What a route handler hands to the use cases: the unit of work bound to the request's
 * transaction (or the pool, on reads), the clock and the providers.
 */
export interface UseCaseDeps {
  uow: HandlerUnitOfWork;
  clock: Clock;
  payments: PaymentProvider;
  checkUrl: EndpointUrlCheck;
  /** The instance's kept public calendars (`getPublicCalendar`). */
  calendarMemo?: CalendarMemo;
}
