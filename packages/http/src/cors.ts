import type { RequestHandler } from 'express';

/** What a widget's script may read of an answer besides the safelisted headers. */
const EXPOSED_HEADERS = [
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Request-Id',
  'Idempotent-Replayed',
].join(', ');

/**
 * CORS for the public operations: booking widgets run on operators' own sites, so `/public/*`
 * answers any origin. Never with credentials: no cookie or `Authorization` is needed there, so
 * `Access-Control-Allow-Credentials` is never sent and `*` cannot leak a session. Preflights
 * (a POST with `Content-Type: application/json` and `Idempotency-Key`) are answered here, before
 * admission: they do no work. Nothing authenticated is ever mounted behind this.
 */
export const publicCors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
  // helmet's default (same-origin) would also stop a page embedding an answer without CORS.
  res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
  if (req.method !== 'OPTIONS') return next();
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Idempotency-Key');
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
};
