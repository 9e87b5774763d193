import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import { sendError } from './errors.js';

/**
 * `GET /widget.js`: the booking widget's bundle, for `<script src>` on any site. The address
 * is the one operators paste, so it cannot carry a version: browsers keep it for 5 minutes, then
 * revalidate with the content's ETag (304 while it is unchanged). Loadable from every origin
 * (CORS and `Cross-Origin-Resource-Policy`); gzipped once here for clients that accept it.
 */
export function serveWidgetScript(script: string | undefined): RequestHandler {
  // Not given to this server: the path is documented all the same, and says so.
  if (script === undefined) {
    return (_req, res) =>
      sendError(res, { code: 'NOT_FOUND', message: 'The booking widget is not configured on this server.' });
  }
  const body = Buffer.from(script, 'utf8');
  const gzipped = gzipSync(body, { level: 9 });
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;
  return (req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Cache-Control', 'public, max-age=300, stale-while-revalidate=86400');
    res.setHeader('ETag', etag);
    res.setHeader('Vary', 'Accept-Encoding');
    res.type('text/javascript; charset=utf-8');
    const tags = (req.get('If-None-Match') ?? '').split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    if (tags.includes(etag) || tags.includes('*')) return void res.status(304).end();
    if (req.acceptsEncodings('gzip', 'identity') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      return void res.end(gzipped);
    }
    res.end(body);
  };
}
