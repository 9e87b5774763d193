import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { DELIVERY_TIMEOUT_MS, MAX_RESPONSE_BYTES } from '@travelops/webhooks';
import { checkHost } from './address-guard.js';

interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

interface WebhookResponse {
  /** Absent when no answer came: refused, timed out, blocked address. */
  statusCode?: number;
  retryAfter?: string | null;
  /** The first bytes of the receiver's answer, for the delivery log. */
  body?: string;
  error?: string;
}

export type WebhookSender = (request: WebhookRequest) => Promise<WebhookResponse>;

/**
 * POSTs one delivery: no redirects followed (a 3xx is just a status), a 10 s limit on the
 * whole exchange, at most 4 KiB of the answer read, and (unless private addresses are
 * allowed) the host re-checked at send time, so a DNS change cannot aim it inward.
 */
export function createWebhookSender(options: {
  allowPrivateAddresses: boolean;
  timeoutMs?: number;
}): WebhookSender {
  const timeoutMs = options.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  return async ({ url, headers, body }) => {
    const target = new URL(url);
    const host = await checkHost(target.hostname, options.allowPrivateAddresses);
    if (!host.ok) return { error: host.issue };
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<WebhookResponse>((resolve) => {
      const req = send(
        target,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) },
          // Connect to the address that was checked, not whatever DNS says a moment later.
          lookup: (_hostname, lookupOptions, callback) => {
            const address = host.addresses[0] as string;
            const family = address.includes(':') ? 6 : 4;
            if (lookupOptions.all) callback(null, [{ address, family }]);
            else (callback as (err: null, address: string, family: number) => void)(null, address, family);
          },
          signal: AbortSignal.timeout(timeoutMs),
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < MAX_RESPONSE_BYTES) chunks.push(chunk.subarray(0, MAX_RESPONSE_BYTES - size));
            size += chunk.length;
            if (size >= MAX_RESPONSE_BYTES) res.destroy();
          });
          const done = () =>
            resolve({
              statusCode: res.statusCode ?? 0,
              retryAfter: res.headers['retry-after'] ?? null,
              body: Buffer.concat(chunks).toString('utf8'),
            });
          res.on('end', done);
          res.on('close', done);
          res.on('error', done);
        },
      );
      req.on('error', (error: NodeJS.ErrnoException) => {
        resolve({
          error:
            error.name === 'TimeoutError' || error.code === 'ABORT_ERR'
              ? 'timeout'
              : (error.code ?? error.message),
        });
      });
      req.end(body);
    });
  };
}
