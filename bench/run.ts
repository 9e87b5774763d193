/**
 * `pnpm bench`: the hot paths of the product beside the floor (`../shared/bench/floor.mjs`,
 * outside this repository), interleaved in one run with the same load generator and client
 * count, reported as the ratio of medians of the slices. Also: a deep page of a million
 * bookings, the public calendar over a year, the API's memory, webhook latency, and
 * redelivery after a worker is killed. Its own PostgreSQL database (dropped at the end);
 * the API and the worker run as processes of their own, as in production.
 */
import { availableParallelism, cpus, totalmem } from 'node:os';
import { issueApiToken } from '@travelops/auth';
import { createUnitOfWork } from '@travelops/db';
import { createTestDatabase } from '@travelops/db/testing';
import { createWorkspace } from '@travelops/domain/access';
import { runLoad } from './http-load.js';
import { figuresOf, median, round, type SliceFigures } from './measure.js';
import {
  buildApps,
  cpuMs,
  type FloorTx,
  floorScript,
  freePort,
  runFloorTx,
  type Started,
  sampleRss,
  startApi,
  startFloorServer,
  startWorker,
} from './processes.js';
import { seedBookings, seedDepartures, seededBookingId } from './seed.js';
import { confirmAtRate, redeliveryAfterKill, startReceiver } from './webhooks.js';

const positive = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

const settings = {
  /** Measured seconds per case and side, split into `slices` alternating slices. */
  seconds: positive('BENCH_SECONDS', 9),
  slices: positive('BENCH_SLICES', 3),
  /** Clients of getBooking and of the createBooking race, product and floor alike. */
  clients: positive('BENCH_CLIENTS', 50),
  /** Clients of the latency cases (listBookings, calendar). */
  readClients: positive('BENCH_READ_CLIENTS', 10),
  /**
   * Unmeasured seconds of load on each long-running side (the API, the floor's server) before
   * a case's first slice: what is measured is a warm process, as in production (cold, the
   * API's first thousand bookings ran at two thirds of its later rate).
   */
  warmUpSeconds: positive('BENCH_WARMUP_SECONDS', 3),
  /** Seats of each race round's departure; a round lasts until they are all sold. */
  raceCapacity: positive('BENCH_RACE_CAPACITY', 300),
  bookings: positive('BENCH_BOOKINGS', 1_000_000),
  pageSize: 25,
  pageDepth: positive('BENCH_PAGE_DEPTH', 1000),
  calendarDays: 366,
  calendarPerDay: positive('BENCH_CALENDAR_PER_DAY', 4),
  /** The dense tour of issue 23: about 30 000 departures in a year. */
  densePerDay: positive('BENCH_DENSE_PER_DAY', 82),
  webhookRate: positive('BENCH_WEBHOOK_RATE', 100),
  webhookSeconds: positive('BENCH_WEBHOOK_SECONDS', 10),
};
/** BENCH_ONLY=get,race,list,calendar,healthz,webhooks runs some cases (profiling); default all. */
const only = new Set((process.env.BENCH_ONLY ?? 'get,race,list,calendar,healthz,webhooks').split(','));

const ok200 = (outcome: string) => outcome === '200';
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Side {
  name: string;
  slices: SliceFigures[];
}

interface CaseResult {
  name: string;
  clients: number;
  /** What `perSecond` counts. */
  unit: string;
  sides: Side[];
  notes?: string[];
}

async function main() {
  floorScript(); // fails early, naming the path, when the floor is not there
  log('building the API and the worker (turbo; cached when nothing changed)...');
  await buildApps();
  const db = await createTestDatabase();
  const apiPort = await freePort();
  const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const env = {
    DATABASE_URL: db.url,
    REDIS_URL: redisUrl,
    NODE_ENV: 'production',
    PAYMENT_PROVIDER: 'sandbox',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    LOG_FORMAT: 'json',
    // The bench measures the service, not its limiter's 429s: the limits are lifted, and
    // every check still runs against Redis as in production.
    RATE_LIMIT_PER_TOKEN: '100000000',
    RATE_LIMIT_PER_IP: '100000000',
    EXPENSIVE_REQUESTS_PER_CREDENTIAL: '100000000',
    REDIS_KEY_PREFIX: `bench-${process.pid}:`,
  };
  const started: Started[] = [];
  const api = await startApi(env, apiPort);
  started.push(api);
  const rss = sampleRss(api.pid);
  const results: CaseResult[] = [];
  const extra: Record<string, unknown> = {};

  try {
    // The workspace and its token, as `pnpm cli workspace:create` and `token:create` make them.
    const deps = { uow: createUnitOfWork(db.database.knex), clock: { now: () => new Date() } };
    const workspace = await createWorkspace(deps, { slug: 'bench', name: 'Bench' });
    if (!workspace.ok) throw new Error(workspace.error.message);
    const ws = workspace.value.id;
    const { secret } = await issueApiToken(deps, { workspaceId: ws, role: 'ADMIN', name: 'bench' });
    const authorization = `Bearer ${secret}`;
    /** Set-up calls (not measured) from the main thread. */
    const call = async (method: string, path: string, body?: unknown, expected = 200) => {
      const res = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
        method,
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return JSON.parse(text);
    };
    const tour = await call(
      'POST',
      `/workspaces/${ws}/tours`,
      {
        name: 'Bench Tour',
        slug: 'bench-tour',
        isPublic: true,
        durationMinutes: 60,
        basePrice: 2500,
        currency: 'EUR',
        capacity: 20,
      },
      201,
    );
    const tourId: string = tour.data.id;
    const startsAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const departure = async (capacity: number, at = startsAt): Promise<string> =>
      (await call('POST', `/workspaces/${ws}/availability`, { tourId, startsAt: at, capacity }, 201)).data.id;
    const book = async (availabilityId: string, n: number) =>
      (
        await call(
          'POST',
          `/workspaces/${ws}/bookings`,
          {
            availabilityId,
            customer: { name: 'Bench Guest', email: `guest.${n}@example.com` },
            participants: [{ name: 'Guest' }],
            paymentMode: 'MANUAL',
          },
          201,
        )
      ).data.id as string;

    // ------------------------------------------------------------ seeding
    const seedDeparture = await departure(10_000);
    const template = await book(seedDeparture, 0);
    if (only.has('get') || only.has('list')) {
      const seedingFrom = performance.now();
      await seedBookings(db.database.knex, template, settings.bookings, (done) =>
        log(`seeded ${done.toLocaleString('en')} bookings`),
      );
      log(`seeding took ${round((performance.now() - seedingFrom) / 1000, 1)} s`);
    }

    // ------------------------------------------------------------ (1) getBooking beside floor `serve`
    const slice = settings.seconds / settings.slices;
    if (only.has('get')) {
      log('getBooking beside the floor...');
      const floorPort = await freePort();
      const floor = await startFloorServer(db.url, floorPort);
      try {
        const paths = Array.from(
          { length: 1000 },
          () =>
            `/workspaces/${ws}/bookings/${seededBookingId(1 + Math.floor(Math.random() * settings.bookings))}`,
        );
        const productGets = (seconds: number) =>
          runLoad({ kind: 'get', port: apiPort, authorization, clients: settings.clients, seconds, paths });
        const floorGets = (seconds: number) =>
          runLoad({
            kind: 'get',
            port: floorPort,
            authorization: 'Bearer secret',
            clients: settings.clients,
            seconds,
            paths: ['/bookings/bkg_read'],
          });
        results.push(
          await interleave('getBooking', settings.clients, 'requests/s', [
            {
              name: 'product',
              warmUp: () => productGets(settings.warmUpSeconds),
              run: costed(api.pid, async () => figuresOf(await productGets(slice), ok200)),
            },
            {
              name: 'floor serve',
              warmUp: () => floorGets(settings.warmUpSeconds),
              run: costed(floor.pid, async () => figuresOf(await floorGets(slice), ok200)),
            },
          ]),
        );
      } finally {
        await floor.stop();
      }
    }

    // ------------------------------------------------------------ (2) createBooking race beside floor `tx`
    if (only.has('race')) {
      log('createBooking race beside the floor...');
      // Every round, the warm-up's too, is checked: each seat sold exactly once.
      const rounds: { departure: string; sold: number }[] = [];
      const productRace = async (seconds: number, sharedBoat = false) => {
        const sample = await runLoad({
          sharedBoat,
          kind: 'race',
          port: apiPort,
          authorization,
          clients: settings.clients,
          seconds,
          workspaceId: ws,
          tourId,
          startsAt,
          capacity: settings.raceCapacity,
        });
        (sample.departures ?? []).forEach((id, i) => {
          rounds.push({ departure: id, sold: sample.soldPerRound?.[i] ?? 0 });
        });
        return sample;
      };
      const result = await interleave('createBooking, one departure', settings.clients, 'bookings/s', [
        {
          name: 'product',
          warmUp: () => productRace(settings.warmUpSeconds),
          run: costed(api.pid, async () =>
            figuresOf(await productRace(slice), (outcome) => outcome === '201'),
          ),
        },
        {
          name: 'floor tx',
          run: async () => floorFigures(await runFloorTx(db.url, slice, settings.clients), slice),
        },
        {
          // Each round's departure on a boat of its own, whose seats are checked with each seat.
          name: 'product, shared boat',
          warmUp: () => productRace(settings.warmUpSeconds, true),
          run: costed(api.pid, async () =>
            figuresOf(await productRace(slice, true), (outcome) => outcome === '201'),
          ),
        },
      ]);
      const check = await checkSeats(db.database.knex, rounds);
      result.notes = [
        `every seat sold exactly once: ${check.exact ? 'yes' : 'NO'} (${rounds.length} rounds of ${settings.raceCapacity} seats; ${check.detail})`,
      ];
      if (!check.exact) process.exitCode = 1;
      results.push(result);
    }

    // ------------------------------------------------------------ (3) listBookings: page 1 and page `pageDepth`
    if (only.has('list')) {
      log(`listBookings: walking ${settings.pageDepth} pages...`);
      const listPath = `/workspaces/${ws}/bookings?limit=${settings.pageSize}`;
      let cursor: string | null = null;
      for (let page = 1; page < settings.pageDepth; page++) {
        const body: { pagination: { nextCursor: string | null } } = await call(
          'GET',
          cursor ? `${listPath}&cursor=${encodeURIComponent(cursor)}` : listPath,
        );
        cursor = body.pagination.nextCursor;
        if (!cursor) throw new Error(`the cursor chain ended at page ${page}`);
      }
      const deepPath = `${listPath}&cursor=${encodeURIComponent(cursor as string)}`;
      const get = (paths: string[]) => async () =>
        figuresOf(
          await runLoad({
            kind: 'get',
            port: apiPort,
            authorization,
            clients: settings.readClients,
            seconds: slice,
            paths,
          }),
          ok200,
        );
      results.push(
        await interleave('listBookings', settings.readClients, 'requests/s', [
          { name: 'page 1', run: get([listPath]) },
          { name: `page ${settings.pageDepth}`, run: get([deepPath]) },
        ]),
      );
    }

    // ------------------------------------------------------------ (4) the public calendar over a year
    if (only.has('calendar')) {
      log('public calendar...');
      const calendarTemplate = await departure(20);
      await seedDepartures(
        db.database.knex,
        calendarTemplate,
        settings.calendarDays,
        settings.calendarPerDay,
      );
      const from = new Date().toISOString().slice(0, 10);
      const to = new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
      const path = `/public/bench/tours/bench-tour/calendar?from=${from}&to=${to}`;
      const days: { data: unknown[] } = await call('GET', path);
      if (days.data.length !== 366) throw new Error(`the calendar answered ${days.data.length} days`);
      results.push(
        await interleave('public calendar, 366 days', settings.readClients, 'requests/s', [
          {
            name: `${settings.calendarDays * settings.calendarPerDay} departures`,
            run: async () =>
              figuresOf(
                await runLoad({
                  kind: 'get',
                  port: apiPort,
                  authorization: null,
                  clients: settings.readClients,
                  seconds: slice,
                  paths: [path],
                }),
                ok200,
              ),
          },
        ]),
      );
    }

    // ------------------------------------------------------------ (5) a dense tour: 30 000 departures, calendars not kept
    let densePaths: string[] = [];
    if (only.has('calendar') || only.has('healthz')) {
      log('a dense tour...');
      const dense = await call(
        'POST',
        `/workspaces/${ws}/tours`,
        {
          name: 'Bench Dense',
          slug: 'bench-dense',
          isPublic: true,
          durationMinutes: 15,
          basePrice: 2500,
          currency: 'EUR',
          capacity: 20,
          timeZone: 'Europe/Lisbon',
        },
        201,
      );
      const denseTemplate = (
        await call('POST', `/workspaces/${ws}/availability`, { tourId: dense.data.id, startsAt }, 201)
      ).data.id as string;
      await seedDepartures(db.database.knex, denseTemplate, settings.calendarDays, settings.densePerDay, {
        idPrefix: 'avl_dense',
        spacingSeconds: Math.floor(86_400 / settings.densePerDay),
      });
      // 961 ranges of about a year: each API instance keeps at most 200 calendars, so nearly
      // every request computes its answer (a kept one would measure the memo, not the read).
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      densePaths = Array.from({ length: 31 }, (_, i) =>
        Array.from(
          { length: 31 },
          (_, j) => `/public/bench/tours/bench-dense/calendar?from=${day(i)}&to=${day(i + 335 + j)}`,
        ),
      ).flat();
      const first: { data: { departures: number }[] } = await call('GET', densePaths[0] as string);
      const open = first.data.filter((d) => d.departures > 0).length;
      if (open < 330) throw new Error(`the dense calendar showed ${open} bookable days`);
    }
    if (only.has('calendar')) {
      results.push(
        await interleave('public calendar, dense, not kept', settings.readClients, 'requests/s', [
          {
            name: `${settings.calendarDays * settings.densePerDay} departures`,
            run: costed(api.pid, async () =>
              figuresOf(
                await runLoad({
                  kind: 'get',
                  port: apiPort,
                  authorization: null,
                  clients: settings.readClients,
                  seconds: slice,
                  paths: densePaths,
                }),
                ok200,
              ),
            ),
          },
        ]),
      );
    }

    // ------------------------------------------------------------ (6) /healthz beside 8 expensive requests of one caller
    if (only.has('healthz')) {
      log('healthz beside 8 expensive requests at once...');
      // An API with the default brake (4 expensive requests at once per credential), unlike the first.
      const { EXPENSIVE_REQUESTS_PER_CREDENTIAL: _lifted, ...braked } = env;
      const brakedPort = await freePort();
      const brakedApi = await startApi(
        { ...braked, REDIS_KEY_PREFIX: `bench-braked-${process.pid}:` },
        brakedPort,
      );
      started.push(brakedApi);
      const flooded: Record<string, number> = {};
      results.push(
        await interleave('healthz beside 8 dense calendars', 1, 'requests/s', [
          {
            name: '1 client',
            run: async () => {
              const [probe, flood] = await Promise.all([
                runLoad({
                  kind: 'get',
                  port: brakedPort,
                  authorization: null,
                  clients: 1,
                  seconds: slice,
                  paths: ['/healthz'],
                }),
                runLoad({
                  kind: 'get',
                  port: brakedPort,
                  authorization: null,
                  clients: 8,
                  seconds: slice,
                  paths: densePaths,
                }),
              ]);
              for (const [outcome, n] of Object.entries(flood.outcomes)) {
                flooded[outcome] = (flooded[outcome] ?? 0) + n;
              }
              return figuresOf(probe, ok200);
            },
          },
        ]),
      );
      extra.healthzFlood = flooded;
    }
    extra.apiRss = rss.peak();

    // ------------------------------------------------------------ (5) webhooks: latency, and a worker killed
    if (only.has('webhooks')) {
      log('webhooks...');
      const receiver = await startReceiver();
      try {
        await call(
          'POST',
          `/workspaces/${ws}/webhook-endpoints`,
          { url: receiver.url, events: ['booking.confirmed'] },
          201,
        );
        const count = Math.round(settings.webhookRate * settings.webhookSeconds);
        const target = await departure(count + 10);
        const ids: string[] = [];
        for (let i = 0; i < count + 1; i += 10) {
          ids.push(
            ...(await Promise.all(Array.from({ length: 10 }, (_, j) => book(target, 1_000_000 + i + j)))),
          );
        }
        const workerEnv = { DATABASE_URL: db.url, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', LOG_FORMAT: 'json' };
        let worker = await startWorker(workerEnv);
        started.push(worker);
        const confirm = async (id: string) => {
          const res = await fetch(`http://127.0.0.1:${apiPort}/workspaces/${ws}/bookings/${id}/status`, {
            method: 'POST',
            headers: { Authorization: authorization, 'Content-Type': 'application/json' },
            body: JSON.stringify({ status: 'CONFIRMED' }),
          });
          await res.arrayBuffer();
          return res.status;
        };
        extra.webhookLatency = await confirmAtRate(
          confirm,
          receiver,
          ids.slice(0, count),
          settings.webhookRate,
        );
        log('a worker killed mid-delivery...');
        const killed = await redeliveryAfterKill(
          confirm,
          receiver,
          ids[count] as string,
          worker,
          async () => {
            const next = await startWorker(workerEnv);
            started.push(next);
            return next;
          },
        );
        worker = killed.worker;
        extra.redeliveryAfterKillSeconds = killed.seconds;
      } finally {
        await receiver.close();
      }
    }
    extra.apiRss = { ...rss.peak(), note: 'the API process, through every case above' };
    report(results, extra);
  } finally {
    rss.stop();
    for (const child of started.reverse()) await child.stop();
    await db.drop();
  }
}

/** A slice with the CPU time the serving process `pid` spent per completed request. */
function costed(pid: number, run: () => Promise<SliceFigures>): () => Promise<SliceFigures> {
  return async () => {
    const before = cpuMs(pid);
    const figures = await run();
    const served = Object.values(figures.outcomes).reduce((sum, n) => sum + n, 0);
    return served ? { ...figures, cpuMsPerRequest: round((cpuMs(pid) - before) / served, 3) } : figures;
  };
}

/** The floor's own figures as a slice (floor.mjs summarises its latencies itself). */
function floorFigures(floor: FloorTx, seconds: number): SliceFigures {
  const count = Math.round(floor.perSecond * seconds);
  return {
    perSecond: round(floor.perSecond, 1),
    p50Ms: round(floor.p50, 2),
    p99Ms: round(floor.p99, 2),
    count,
    seconds,
    outcomes: { '201': count, ...(floor.errors && { error: floor.errors }) },
  };
}

interface SideRun {
  name: string;
  /** One measured slice of this side. */
  run: () => Promise<SliceFigures>;
  /** Load for `settings.warmUpSeconds`, unmeasured, before the first slice (a long-running side). */
  warmUp?: () => Promise<unknown>;
}

/** Runs the sides' slices in turn (A, B, A, B...), so background load weighs on every side alike. */
async function interleave(name: string, clients: number, unit: string, runs: SideRun[]): Promise<CaseResult> {
  const sides: Side[] = runs.map((r) => ({ name: r.name, slices: [] }));
  for (const r of runs) {
    if (!r.warmUp) continue;
    log(`  ${name} / ${r.name}: warming up for ${settings.warmUpSeconds} s (unmeasured)...`);
    await r.warmUp();
  }
  for (let i = 0; i < settings.slices; i++) {
    for (const [k, r] of runs.entries()) {
      const figures = await r.run();
      sides[k]?.slices.push(figures);
      const cpu = figures.cpuMsPerRequest === undefined ? '' : `, ${figures.cpuMsPerRequest} ms CPU/request`;
      log(`  ${name} / ${r.name}: ${figures.perSecond} ${unit}, p50 ${figures.p50Ms} ms${cpu}`);
    }
  }
  return { name, clients, unit, sides };
}

/** Each round's departure: capacity = seats booked = seats of its live bookings = 201s counted. */
async function checkSeats(
  knex: Awaited<ReturnType<typeof createTestDatabase>>['database']['knex'],
  rounds: { departure: string; sold: number }[],
) {
  const { rows } = await knex.raw<{
    rows: { id: string; capacity: number; booked_seats: number; seats: number }[];
  }>(
    `select a.id, a.capacity, a.booked_seats,
            coalesce(sum(b.participant_count) filter (where b.status <> 'CANCELLED'), 0)::int as seats
       from availability a left join bookings b on b.availability_id = a.id
      where a.id = any(?) group by a.id`,
    [rounds.map((r) => r.departure)],
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const wrong = rounds.filter((r) => {
    const row = byId.get(r.departure);
    return !row || row.capacity !== r.sold || row.booked_seats !== r.sold || row.seats !== r.sold;
  });
  return {
    exact: wrong.length === 0,
    detail: wrong.length
      ? `wrong: ${JSON.stringify(wrong.map((r) => ({ ...r, db: byId.get(r.departure) })))}`
      : 'capacity = seats booked = seats of bookings = 201s, in every round',
  };
}

// ---------------------------------------------------------------- output

function report(results: CaseResult[], extra: Record<string, unknown>) {
  const fmt = (n: number) => (Number.isFinite(n) ? String(round(n, 1)) : '-');
  const rows: string[][] = [];
  const medians = new Map<string, { perSecond: number; p50: number; p99: number }>();
  for (const c of results) {
    for (const side of c.sides) {
      const m = {
        perSecond: median(side.slices.map((s) => s.perSecond)),
        p50: median(side.slices.map((s) => s.p50Ms)),
        p99: median(side.slices.map((s) => s.p99Ms)),
      };
      const cpu = side.slices.flatMap((s) => (s.cpuMsPerRequest === undefined ? [] : [s.cpuMsPerRequest]));
      medians.set(`${c.name}/${side.name}`, m);
      rows.push([
        c.name,
        side.name,
        String(c.clients),
        side.slices.map((s) => fmt(s.perSecond)).join(' / '),
        `${fmt(m.perSecond)} ${c.unit}`,
        fmt(m.p50),
        fmt(m.p99),
        cpu.length ? median(cpu).toFixed(3) : '-',
      ]);
    }
  }
  console.log('');
  console.log(
    table(['case', 'side', 'clients', 'per slice', 'median', 'p50 ms', 'p99 ms', 'CPU ms/req'], rows),
  );

  const get = (key: string) => medians.get(key);
  const verdicts: string[][] = [];
  const ratio = (a?: number, b?: number) => (a !== undefined && b !== undefined ? a / b : Number.NaN);
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  const getRatio = ratio(get('getBooking/product')?.perSecond, get('getBooking/floor serve')?.perSecond);
  if (Number.isFinite(getRatio))
    verdicts.push([
      'getBooking / floor serve (req/s)',
      `${getRatio.toFixed(2)}x`,
      '>= 0.6x',
      verdict(getRatio >= 0.6),
    ]);
  const race = 'createBooking, one departure';
  const raceRatio = ratio(get(`${race}/product`)?.perSecond, get(`${race}/floor tx`)?.perSecond);
  if (Number.isFinite(raceRatio))
    verdicts.push([
      'createBooking / floor tx (bookings/s)',
      `${raceRatio.toFixed(2)}x`,
      '>= 0.7x',
      verdict(raceRatio >= 0.7),
    ]);
  const boatRatio = ratio(get(`${race}/product, shared boat`)?.perSecond, get(`${race}/product`)?.perSecond);
  if (Number.isFinite(boatRatio))
    verdicts.push([
      'createBooking on a shared boat / plain (bookings/s)',
      `${boatRatio.toFixed(2)}x`,
      'reported',
      'reported',
    ]);
  const deep = ratio(get(`listBookings/page ${settings.pageDepth}`)?.p50, get('listBookings/page 1')?.p50);
  if (Number.isFinite(deep))
    verdicts.push([
      `listBookings p50 page ${settings.pageDepth} / page 1`,
      `${deep.toFixed(2)}x`,
      '<= 1.2x',
      verdict(deep <= 1.2),
    ]);
  const calendar = [...medians.entries()].find(([key]) => key.startsWith('public calendar'))?.[1];
  if (calendar)
    verdicts.push([
      'public calendar p50, 366 days',
      `${calendar.p50.toFixed(1)} ms`,
      '< 20 ms',
      verdict(calendar.p50 < 20),
    ]);
  const dense = [...medians.entries()].find(([key]) => key.startsWith('public calendar, dense'))?.[1];
  if (dense)
    verdicts.push([
      `public calendar p50, ${settings.calendarDays * settings.densePerDay} departures, not kept`,
      `${dense.p50.toFixed(1)} ms`,
      '< 200 ms',
      verdict(dense.p50 < 200),
    ]);
  const healthz = [...medians.entries()].find(([key]) => key.startsWith('healthz beside'))?.[1];
  if (healthz)
    verdicts.push([
      `healthz p99 beside 8 expensive requests (${JSON.stringify(extra.healthzFlood)})`,
      `${healthz.p99.toFixed(1)} ms`,
      '< 100 ms',
      verdict(healthz.p99 < 100),
    ]);
  const memory = extra.apiRss as { sampledMb: number; highWaterMb: number } | undefined;
  if (memory)
    verdicts.push([
      'API RSS, peak',
      `${memory.highWaterMb} MB`,
      '<= 250 MB',
      verdict(memory.highWaterMb <= 250),
    ]);
  const hooks = extra.webhookLatency as { p50Ms: number; p99Ms: number; missing: number } | undefined;
  if (hooks) {
    verdicts.push([
      `confirm -> booking.confirmed p50, ${settings.webhookRate}/s`,
      `${hooks.p50Ms} ms`,
      '<= 100 ms',
      verdict(hooks.p50Ms <= 100 && hooks.missing === 0),
    ]);
    verdicts.push([
      '  ... p99',
      `${hooks.p99Ms} ms`,
      '<= 1000 ms',
      verdict(hooks.p99Ms <= 1000 && hooks.missing === 0),
    ]);
  }
  const redelivered = extra.redeliveryAfterKillSeconds as number | undefined;
  if (redelivered !== undefined)
    verdicts.push([
      'worker SIGKILLed mid-delivery -> sent again',
      `${redelivered} s`,
      '<= 20 s',
      verdict(redelivered <= 20),
    ]);
  console.log('');
  console.log(table(['target', 'this run', 'target', 'verdict'], verdicts));
  for (const c of results) for (const note of c.notes ?? []) console.log(`\n${c.name}: ${note}`);
  console.log('');
  console.log(
    JSON.stringify(
      {
        node: process.version,
        cpus: availableParallelism(),
        cpuModel: cpus()[0]?.model,
        memoryGb: round(totalmem() / 2 ** 30, 1),
        settings,
        results,
        ...extra,
      },
      null,
      2,
    ),
  );
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
