import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createStores } from '@travelops/db';
import type { Clock } from '@travelops/domain/shared';
import { createWebhookDeliveryJob, createWebhookSender, type Job, type WebhookSender } from '@travelops/jobs';
import { EVENT_ID_HEADER, parseSignatureHeader, SIGNATURE_HEADER, verify } from '@travelops/webhooks';
import type { TestWorkspace } from './fixtures.js';
import type { TestApi } from './harness.js';

export const SECOND = 1000;

/** One POST as the receiver saw it. */
interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  eventId: string | undefined;
  signature: string;
  rawBody: Buffer;
  /** The parsed envelope; null when the body is not JSON. */
  event: any;
  verified: boolean;
  /** `t` and the `v1` digests of the signature header. */
  t: number | null;
  v1: string[];
  /** What the receiver answered; 0 while it has not answered (or never will). */
  status: number;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';
/** How the receiver answers a delivery whose signature verified. */
export type Behaviour = (request: ReceivedRequest) => Answer;

export const answer = {
  ok: (): Answer => ({ status: 204 }),
  status:
    (status: number, headers?: Record<string, string>, body?: string): Behaviour =>
    () => ({ status, ...(headers && { headers }), ...(body !== undefined && { body }) }),
  hang: (): Answer => 'hang',
};

export interface Receiver {
  /** Where deliveries go: `http://127.0.0.1:<port>/hooks`. */
  url: string;
  /** What it verifies with (one secret, or the list a receiver accepts during a rotation). */
  secret: string | string[];
  requests: ReceivedRequest[];
  behave(behaviour: Behaviour): void;
  /** The envelopes it verified and answered with 2xx, in arrival order. */
  accepted(): any[];
  /** Stops listening (the port refuses connections) until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A real webhook receiver on 127.0.0.1: verifies each delivery with `verify` over the raw
 * body (401 when it does not verify, as the spec's receiver rules say), records it, and
 * answers as told.
 */
export async function startReceiver(): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let behaviour: Behaviour = answer.ok;
  let port = 0;

  const receiver: Receiver = {
    url: '',
    secret: 'whsec_unset',
    requests,
    behave(next) {
      behaviour = next;
    },
    accepted: () =>
      requests.filter((r) => r.verified && r.status >= 200 && r.status < 300).map((r) => r.event),
    async stop() {
      for (const res of hanging) res.destroy();
      hanging.clear();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    async start() {
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close() {
      return receiver.stop();
    },
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    res.on('error', () => {}); // a sender that stops reading a long answer resets the socket
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks);
    const header = req.headers[SIGNATURE_HEADER];
    const signature = typeof header === 'string' ? header : '';
    const parsed = parseSignatureHeader(signature);
    let event: any = null;
    try {
      event = JSON.parse(rawBody.toString('utf8'));
    } catch {
      // Recorded as it came.
    }
    const eventId = req.headers[EVENT_ID_HEADER];
    const record: ReceivedRequest = {
      path: req.url ?? '',
      headers: req.headers,
      eventId: typeof eventId === 'string' ? eventId : undefined,
      signature,
      rawBody,
      event,
      verified: verify({ rawBody, header: signature, secret: receiver.secret }).ok,
      t: parsed?.timestamp ?? null,
      v1: parsed?.signatures ?? [],
      status: 0,
    };
    requests.push(record);
    const reply: Answer = record.verified ? behaviour(record) : { status: 401 };
    if (reply === 'hang') {
      hanging.add(res);
      return;
    }
    record.status = reply.status;
    res.writeHead(reply.status, reply.headers);
    res.end(reply.body);
  }

  const server = createServer((req, res) => void handle(req, res));
  await receiver.start();
  port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${port}/hooks`;
  return receiver;
}

/** A clock that moves only when told: `{ now: () => current }`. */
export interface TestClock extends Clock {
  advance(ms: number): Date;
  /** Moves to just ahead of the real time if it is behind. */
  catchUp(): Date;
}

// The fan-out stamps new deliveries due at the database's now(), so a frozen clock must stand
// a little ahead of the real time for the same run to find them due.
const LEAD_MS = SECOND;

export function testClock(): TestClock {
  let current = new Date(Date.now() + LEAD_MS);
  return {
    now: () => current,
    advance(ms) {
      current = new Date(current.getTime() + ms);
      return current;
    },
    catchUp() {
      if (current.getTime() < Date.now() + LEAD_MS) current = new Date(Date.now() + LEAD_MS);
      return current;
    },
  };
}

export interface JobOptions {
  send?: WebhookSender;
  /** The sender's limit per attempt. */
  timeoutMs?: number;
  windowMs?: number;
  leaseMs?: number;
  /** The poll, when the job runs in a worker. */
  intervalMs?: number;
}

/** The worker's delivery job on the test API's database, with short retry delays; it logs to `t.logs`. */
export function deliveryJob(t: TestApi, clock: Clock, options: JobOptions = {}): Job {
  const log = (level: string) => (fields: object, msg?: string) =>
    void t.logs.push(JSON.stringify({ level, msg, ...fields }));
  return createWebhookDeliveryJob({
    stores: createStores(t.api.database.knex),
    clock,
    logger: { info: log('info'), warn: log('warn'), error: log('error') },
    send:
      options.send ??
      createWebhookSender({ allowPrivateAddresses: true, timeoutMs: options.timeoutMs ?? 2 * SECOND }),
    policy: { baseDelayMs: 50, maxDelayMs: 200, windowMs: options.windowMs ?? 60 * 60 * SECOND },
    ...(options.leaseMs !== undefined && { leaseMs: options.leaseMs }),
    ...(options.intervalMs !== undefined && { intervalMs: options.intervalMs }),
  });
}

/** One turn of the job: fan out the outbox, then deliver whatever is due by the clock. */
export const runJob = (job: Job) => job.run(new AbortController().signal);

export const endpointsPath = (ws: TestWorkspace, endpointId?: string, suffix = '') =>
  `/workspaces/${ws.workspaceId}/webhook-endpoints${endpointId ? `/${endpointId}` : ''}${suffix}`;

/** createWebhookEndpoint that must answer 201: the endpoint with its one-time secret. */
export async function createEndpoint(
  t: TestApi,
  ws: TestWorkspace,
  body: { url: string; events?: string[]; enabled?: boolean; description?: string },
) {
  const res = await t.request('POST', endpointsPath(ws), {
    token: ws.token,
    body: { events: ['booking.created', 'booking.confirmed', 'booking.cancelled'], ...body },
  });
  if (res.status !== 201) throw new Error(`create endpoint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function patchEndpoint(
  t: TestApi,
  ws: TestWorkspace,
  endpointId: string,
  body: Record<string, unknown>,
) {
  const res = await t.request('PATCH', endpointsPath(ws, endpointId), { token: ws.token, body });
  if (res.status !== 200) throw new Error(`patch endpoint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

export async function getEndpoint(t: TestApi, ws: TestWorkspace, endpointId: string) {
  const res = await t.request('GET', endpointsPath(ws, endpointId), { token: ws.token });
  if (res.status !== 200) throw new Error(`get endpoint: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The endpoint's deliveries as the API lists them (newest first; one fan-out shares a createdAt). */
export async function deliveriesOf(t: TestApi, ws: TestWorkspace, endpointId: string): Promise<any[]> {
  const res = await t.request('GET', `${endpointsPath(ws, endpointId, '/deliveries')}?limit=100`, {
    token: ws.token,
  });
  if (res.status !== 200) throw new Error(`list deliveries: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/** The delivery of one event to the endpoint. */
export async function deliveryOf(t: TestApi, ws: TestWorkspace, endpointId: string, eventId: string) {
  const found = (await deliveriesOf(t, ws, endpointId)).find((d) => d.eventId === eventId);
  if (!found) throw new Error(`no delivery of ${eventId} to ${endpointId}`);
  return found;
}
