import type { Database } from '@travelops/db';
import type { Logger } from '@travelops/domain/shared';
import type { HttpMetrics } from '@travelops/http';
import { countDeliveryAttempts, type DeliveryAttemptOutcome } from '@travelops/jobs';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

type Knex = Database['knex'];

/** knex's pool (tarn), read for the pool gauges; absent on a client without one. */
interface Pool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
  max: number;
}
const poolOf = (knex: Knex): Pool | undefined => (knex.client as { pool?: Pool }).pool;

/** The database's answers are cached this long: a tight scrape interval costs no more queries. */
const DATABASE_FACTS_TTL_MS = 10_000;

interface DatabaseFacts {
  outboxLagSeconds: number;
  holdsExpired: number;
  seatsSold: number;
}

/**
 * Facts every instance reads alike from the shared database, so they hold with several API
 * instances and a separate worker: the age of the oldest event not yet delivered (not fanned
 * out yet, or with a delivery still PENDING), holds that expired, and seats sold.
 */
async function readDatabaseFacts(knex: Knex): Promise<DatabaseFacts> {
  const { rows } = await knex.raw<{
    rows: Array<{ lag: string | number | null; expired: string | number; sold: string | number }>;
  }>(`
    select
      extract(epoch from now() - least(
        (select min(created_at) from outbox_events where published_at is null),
        (select min(e.created_at) from webhook_deliveries d join outbox_events e on e.id = d.event_id
          where d.status = 'PENDING')
      )) as lag,
      (select count(*) from bookings where status = 'CANCELLED' and cancellation_reason = 'EXPIRED') as expired,
      (select coalesce(sum(participant_count), 0) from bookings
        where status in ('CONFIRMED', 'COMPLETED', 'NO_SHOW')) as sold`);
  const row = rows[0];
  return {
    outboxLagSeconds: Math.max(Number(row?.lag ?? 0), 0),
    holdsExpired: Number(row?.expired ?? 0),
    seatsSold: Number(row?.sold ?? 0),
  };
}

export interface ApiMetrics extends HttpMetrics {
  /** For the jobs this process runs (embedded PGlite, or WORKER_IN_PROCESS). */
  deliveryAttempt(outcome: DeliveryAttemptOutcome): void;
}

/** The API's Prometheus registry: requests, the pool, the outbox, webhooks, holds and seats. */
export function createApiMetrics(options: { token: string; knex: Knex; logger: Logger }): ApiMetrics {
  const { knex, logger } = options;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route template and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'travelops_db_pool_connections',
    help: 'Database connections of this instance by state: used, free, and requests waiting for one.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = poolOf(knex);
      if (!pool) return;
      this.set({ state: 'used' }, pool.numUsed());
      this.set({ state: 'free' }, pool.numFree());
      this.set({ state: 'pending' }, pool.numPendingAcquires());
    },
  });
  new Gauge({
    name: 'travelops_db_pool_max_connections',
    help: 'Largest number of connections the pool of this instance opens.',
    registers: [registry],
    collect() {
      const pool = poolOf(knex);
      if (pool) this.set(pool.max);
    },
  });
  const deliveryAttempt = countDeliveryAttempts(registry);

  let facts: { at: number; value: Promise<DatabaseFacts | null> } | undefined;
  const databaseFacts = () => {
    if (!facts || Date.now() - facts.at > DATABASE_FACTS_TTL_MS) {
      const value = readDatabaseFacts(knex).catch((error: unknown) => {
        logger.warn({ err: String(error) }, 'metrics: the database did not answer');
        return null;
      });
      facts = { at: Date.now(), value };
    }
    return facts.value;
  };
  const fromDatabase = (name: string, help: string, pick: (facts: DatabaseFacts) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const value = await databaseFacts();
        if (value) this.set(pick(value));
      },
    });
  fromDatabase(
    'travelops_outbox_lag_seconds',
    'Age of the oldest event not yet delivered to every endpoint (0 when all are out); from the database.',
    (f) => f.outboxLagSeconds,
  );
  fromDatabase(
    'travelops_holds_expired',
    'Bookings cancelled because their unpaid hold expired, all time; from the database.',
    (f) => f.holdsExpired,
  );
  fromDatabase(
    'travelops_seats_sold',
    'Seats of CONFIRMED, COMPLETED and NO_SHOW bookings (sold and not cancelled); from the database.',
    (f) => f.seatsSold,
  );

  return {
    token: options.token,
    observeRequest({ method, route, status, seconds }) {
      requests.observe({ method, route, status: String(status) }, seconds);
    },
    deliveryAttempt,
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
