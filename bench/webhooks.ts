/**
 * Webhook latency, end to end: a local receiver, the worker process, and bookings confirmed
 * through the API at a steady rate; then a worker killed (SIGKILL) while a delivery is in
 * flight, and how long until another worker sends it again.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { round } from './measure.js';
import type { Started } from './processes.js';

interface Received {
  eventId: string;
  type: string;
  bookingId: string;
  at: number;
}

/** Answers 204 at once, except the deliveries it is told to hold open (the "mid-delivery" of a crash). */
export async function startReceiver() {
  const received: Received[] = [];
  const waiters: Array<() => void> = [];
  let holdNext = false;
  const held: ServerResponse[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const at = performance.now();
      const event = JSON.parse(body) as { id: string; type: string; data: { id: string } };
      received.push({ eventId: event.id, type: event.type, bookingId: event.data.id, at });
      for (const wake of waiters.splice(0)) wake();
      if (holdNext) {
        holdNext = false;
        held.push(res);
        return;
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** The next delivery is read and then left unanswered. */
    holdNext: () => {
      holdNext = true;
    },
    /** Resolves once `predicate` holds for some received delivery (or rejects after `timeoutMs`). */
    async waitFor(predicate: (r: Received) => boolean, timeoutMs: number): Promise<Received> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = received.find(predicate);
        if (found) return found;
        if (Date.now() > deadline) throw new Error('the receiver waited in vain');
        await new Promise<void>((wake) => {
          waiters.push(wake);
          setTimeout(wake, 100);
        });
      }
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    },
  };
}

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;

/**
 * Confirms `bookingIds` at `perSecond` (open loop: on schedule, whatever the answers do) and
 * times each from its confirm's 200 (the change has committed) to the receiver's
 * `booking.confirmed`.
 */
export async function confirmAtRate(
  confirm: (bookingId: string) => Promise<number>,
  receiver: Receiver,
  bookingIds: string[],
  perSecond: number,
) {
  const confirmedAt = new Map<string, number>();
  const failures: number[] = [];
  const start = performance.now();
  const sent: Promise<void>[] = [];
  for (const [i, id] of bookingIds.entries()) {
    const due = start + (i * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    sent.push(
      confirm(id).then((status) => {
        if (status === 200) confirmedAt.set(id, performance.now());
        else failures.push(status);
      }),
    );
  }
  await Promise.all(sent);
  const sendSeconds = (performance.now() - start) / 1000;
  const arrived = new Map<string, number>();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    for (const r of receiver.received)
      if (r.type === 'booking.confirmed' && !arrived.has(r.bookingId)) arrived.set(r.bookingId, r.at);
    if ([...confirmedAt.keys()].every((id) => arrived.has(id))) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  const latencies = [...confirmedAt.entries()]
    .filter(([id]) => arrived.has(id))
    .map(([id, at]) => (arrived.get(id) as number) - at)
    .sort((a, b) => a - b);
  return {
    confirmations: bookingIds.length,
    achievedPerSecond: round(bookingIds.length / sendSeconds, 1),
    confirmFailures: failures.length,
    missing: confirmedAt.size - latencies.length,
    p50Ms: round(percentile(latencies, 0.5), 1),
    p99Ms: round(percentile(latencies, 0.99), 1),
    maxMs: round(latencies.at(-1) ?? Number.NaN, 1),
    meanMs: round(latencies.reduce((a, b) => a + b, 0) / Math.max(latencies.length, 1), 1),
  };
}

/**
 * One delivery held open by the receiver, its worker killed with SIGKILL, a new worker
 * started at once (as a supervisor would): seconds from the kill to the delivery sent again.
 */
export async function redeliveryAfterKill(
  confirm: (bookingId: string) => Promise<number>,
  receiver: Receiver,
  bookingId: string,
  worker: Started,
  startWorker: () => Promise<Started>,
): Promise<{ seconds: number; worker: Started }> {
  receiver.holdNext();
  const status = await confirm(bookingId);
  if (status !== 200) throw new Error(`confirm answered ${status}`);
  const first = await receiver.waitFor(
    (r) => r.type === 'booking.confirmed' && r.bookingId === bookingId,
    30_000,
  );
  const killedAt = performance.now();
  await worker.stop('SIGKILL');
  const next = await startWorker();
  const again = await receiver.waitFor((r) => r.eventId === first.eventId && r.at > killedAt, 120_000);
  return { seconds: round((again.at - killedAt) / 1000, 2), worker: next };
}
