import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { countDeliveryAttempts } from '@travelops/jobs';
import { collectDefaultMetrics, Registry } from 'prom-client';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The worker's metrics: its webhook delivery attempts by outcome (and the process's own
 * figures), served at /metrics on METRICS_HOST:METRICS_PORT to a scraper holding METRICS_TOKEN. Everything
 * read from the database (outbox lag, holds, seats) is on the API's /metrics.
 */
export function startWorkerMetrics(options: { host: string; port: number; token: string }) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const deliveryAttempt = countDeliveryAttempts(registry);

  const expected = digest(options.token);
  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'GET' || req.url !== '/metrics') return res.writeHead(404).end();
    const presented = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(presented), expected)) {
      return res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"' }).end();
    }
    res.writeHead(200, { 'Content-Type': registry.contentType }).end(await registry.metrics());
  });
  const listening = new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, resolve);
  });
  return {
    listening,
    deliveryAttempt,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
