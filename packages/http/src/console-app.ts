import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import express, { type RequestHandler, type Router } from 'express';
import { pagePolicy } from './csp.js';
import { sendError } from './errors.js';

interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
}

/** The built files, read and compressed once: a few hundred kB, served from memory. */
function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const body = readFileSync(join(dir, name));
    assets.set(name, { type: extname(name), body, gzipped: gzipSync(body, { level: 9 }) });
  }
  return assets;
}

/**
 * The operator console (apps/console, built by Vite) under `/app/`: same origin as the API,
 * so its calls carry the session cookie and need no CORS. Every path under /app/ that is not
 * a file answers the one page (the console routes in the browser). Its policy allows scripts
 * and styles from this origin only: no inline script, no inline style, nothing elsewhere.
 */
export function consoleRouter(options: { dir: string; https: boolean }): Router {
  const page = readFileSync(join(options.dir, 'index.html'), 'utf8');
  const assets = loadAssets(join(options.dir, 'assets'));
  const policy = pagePolicy({ https: options.https, selfAssets: true });
  const router = express.Router({ strict: true });

  router.get('/assets/:name', (req, res, next) => {
    const asset = assets.get(req.params.name);
    if (!asset) return next();
    // File names carry a hash of their content: a new build is new names, so they never go stale.
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    res.type(asset.type);
    if (req.acceptsEncodings('gzip') === 'gzip') {
      res.setHeader('Content-Encoding', 'gzip');
      return res.send(asset.gzipped);
    }
    res.send(asset.body);
  });
  router.get(/.*/, (req, res, next) => {
    if (req.path.startsWith('/assets/')) return next();
    // `/app` itself: the console's paths start at `/app/`.
    if (req.originalUrl === '/app' || req.originalUrl.startsWith('/app?')) {
      return res.redirect(301, `/app/${req.originalUrl.slice(4)}`);
    }
    res.setHeader('Content-Security-Policy', policy);
    // Always asked again, so a deployment's new asset names are picked up at once.
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(page);
  });
  return router;
}

/** `/app/` on a server not given the console's files: every path under it says so, as a 404. */
export const consoleNotConfigured: RequestHandler = (_req, res) =>
  sendError(res, { code: 'NOT_FOUND', message: 'The operator console is not configured on this server.' });
