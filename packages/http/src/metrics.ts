import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import type { HttpMetrics } from './deps.js';
import { sendError } from './errors.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics`: Prometheus text for a scraper holding `METRICS_TOKEN` as a bearer secret.
 * Compared in constant time (as hashes, so lengths never differ); anything else is 401.
 */
export function metricsHandler(metrics: HttpMetrics) {
  const expected = digest(metrics.token);
  return async (req: Request, res: Response) => {
    const presented = /^Bearer (.+)$/.exec(req.get('Authorization') ?? '')?.[1] ?? '';
    if (!timingSafeEqual(digest(presented), expected)) {
      res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
      return sendError(res, {
        code: 'UNAUTHENTICATED',
        message: 'Send the metrics token as a bearer token.',
      });
    }
    const { contentType, body } = await metrics.render();
    res.setHeader('Cache-Control', 'no-store');
    res.type(contentType).send(body);
  };
}
