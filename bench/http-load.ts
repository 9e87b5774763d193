/**
 * The HTTP load generator, run in a worker thread so that sending requests and parsing
 * replies does not share the main thread's event loop. The product and the floor are loaded
 * by this same code with the same client count.
 */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { closedLoop, raceRounds, type Sample } from './measure.js';

/** Customers' e-mails are new in every run and thread: the race creates a customer per booking. */
const runTag = randomUUID().slice(0, 8);

export type LoadJob =
  /** GET one of `paths` (picked at random) from `clients` closed loops. */
  | {
      kind: 'get';
      port: number;
      authorization: string | null;
      clients: number;
      seconds: number;
      paths: string[];
    }
  /** createBooking (one seat, a fresh Idempotency-Key each) racing for a fresh departure of `tourId` per round. */
  | {
      kind: 'race';
      port: number;
      authorization: string;
      clients: number;
      seconds: number;
      workspaceId: string;
      tourId: string;
      startsAt: string;
      capacity: number;
      /** Each round's departure runs on a fresh SHARED_SEATS boat of `capacity` seats (issue 27). */
      sharedBoat?: boolean;
    };

/** Runs `job` in a worker thread (TypeScript loaded through tsx, as in the main thread). */
export function runLoad(job: LoadJob): Promise<Sample> {
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = import.meta.url;
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); })`;
  return new Promise((resolve, reject) => {
    const worker = new Worker(boot, { eval: true, workerData: job });
    worker.once('message', (result: Sample) => {
      resolve(result);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load worker exited with ${code} (${fileURLToPath(entry)})`));
    });
  });
}

function httpClient(port: number, authorization: string | null) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const send = (method: string, path: string, body?: unknown, extra?: Record<string, string>) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent,
          headers: {
            ...(authorization && { Authorization: authorization }),
            ...(payload && {
              'Content-Type': 'application/json',
              'Content-Length': Buffer.byteLength(payload),
            }),
            ...extra,
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  return { send, close: () => agent.destroy() };
}

async function run(job: LoadJob): Promise<Sample> {
  const client = httpClient(job.port, job.authorization);
  try {
    if (job.kind === 'get') {
      const { paths } = job;
      return await closedLoop(job.clients, job.seconds, async () => {
        const path = paths[Math.floor(Math.random() * paths.length)] as string;
        return String((await client.send('GET', path)).status);
      });
    }
    const { workspaceId, tourId, startsAt, capacity } = job;
    return await raceRounds({
      clients: job.clients,
      seconds: job.seconds,
      async prepare(warmUp) {
        const seats = warmUp ? job.clients : capacity;
        let resourceIds: string[] | undefined;
        if (job.sharedBoat) {
          const boat = await client.send('POST', `/workspaces/${workspaceId}/resources`, {
            kind: 'BOAT',
            name: `Race boat ${runTag}`,
            seats,
            sharing: 'SHARED_SEATS',
          });
          if (boat.status !== 201) throw new Error(`createResource: ${boat.status} ${boat.text}`);
          resourceIds = [JSON.parse(boat.text).data.id as string];
        }
        const res = await client.send('POST', `/workspaces/${workspaceId}/availability`, {
          tourId,
          startsAt,
          capacity: seats,
          ...(resourceIds && { resourceIds }),
        });
        if (res.status !== 201) throw new Error(`createAvailability: ${res.status} ${res.text}`);
        return JSON.parse(res.text).data.id as string;
      },
      async attempt(availabilityId, seq) {
        const res = await client.send(
          'POST',
          `/workspaces/${workspaceId}/bookings`,
          {
            availabilityId,
            customer: { name: 'Racer', email: `racer.${runTag}.${seq}@example.com` },
            participants: [{ name: 'Racer' }],
          },
          // As an integrator would send it: a retry of this request could not book twice.
          { 'Idempotency-Key': randomUUID() },
        );
        return String(res.status);
      },
    });
  } finally {
    client.close();
  }
}

if (!isMainThread && parentPort) {
  const port = parentPort;
  void run(workerData as LoadJob).then((result) => port.postMessage(result));
}
