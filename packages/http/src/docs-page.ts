import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Request, Response, Router } from 'express';
import express from 'express';
import { pagePolicy } from './csp.js';
import { escapeHtml } from './home-page.js';

/** Where the renderer and our few lines that start it are served from (same origin, no CDN). */
const REDOC_PATH = '/docs/redoc.standalone.js';
const INIT_PATH = '/docs/init.js';

/**
 * Starts Redoc on /openapi.json. It runs under `script-src 'self'` (a file, not inline), and
 * hands Redoc the nonce of its own script tag: Redoc's styled-components put it on every
 * `<style>` it injects, which is how the page's policy lets them in without 'unsafe-inline'.
 */
const INIT_SCRIPT = `// Renders /openapi.json with Redoc (packages/http/src/docs-page.ts says why it looks like this).
(function () {
  var nonce = document.currentScript && document.currentScript.nonce;
  window.Redoc.init(
    '/openapi.json',
    {
      nonce: nonce,
      expandResponses: '200,201',
      jsonSampleExpandLevel: 3,
      requiredPropsFirst: true,
      pathInMiddlePanel: true,
      menuToggle: true,
      theme: { sidebar: { width: '300px' } },
    },
    document.getElementById('reference'),
  );
})();
`;

/** Redoc's standalone bundle (about 1 MB), read once per process. */
let redocBundle: string | undefined;

/**
 * Two edits to the bundle as served, each checked to apply exactly once (a Redoc upgrade that
 * moves either fails at start, not silently in a browser):
 * - webpack's nonce starts as the nonce of the bundle's own `<script>` tag, so the `<style>`
 *   elements injected while the bundle loads (perfect-scrollbar's CSS), before `Redoc.init`
 *   sets it, carry it too;
 * - the "by Redocly" logo, the one address it would fetch by itself, points nowhere: the image
 *   fails and Redoc hides it (its onError), so the page asks no other host.
 */
const BUNDLE_EDITS: ReadonlyArray<[string, string]> = [
  ['r.nc=void 0;', 'r.nc=document.currentScript&&document.currentScript.nonce||void 0;'],
  ['https://cdn.redoc.ly/redoc/logo-mini.svg', ''],
];

function loadRedoc(): string {
  let bundle = readFileSync(
    createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'),
    'utf8',
  );
  for (const [from, to] of BUNDLE_EDITS) {
    if (bundle.split(from).length !== 2)
      throw new Error(`redoc bundle: expected "${from}" once; check /docs`);
    bundle = bundle.replace(from, to);
  }
  return bundle;
}

/** The page: no inline script, no inline style; only the nonce changes per request. */
function docsHtml(title: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="data:,"></head><body>
<noscript><p>This reference renders with JavaScript. The contract itself is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p></noscript>
<div id="reference"></div>
<script src="${REDOC_PATH}" nonce="${nonce}"></script>
<script src="${INIT_PATH}" nonce="${nonce}"></script>
</body></html>`;
}

/**
 * `/docs`: the OpenAPI document rendered by Redoc's standalone bundle, served by this service
 * from the `redoc` package (nothing is fetched from elsewhere). Its Content-Security-Policy:
 * - `script-src 'self'`: the bundle and init.js, both files of this origin; no inline script;
 * - `style-src 'self' 'nonce-<fresh per request>'`: Redoc injects `<style>` elements at run
 *   time (styled-components); they carry the nonce, nothing else inline is applied. A hash
 *   cannot work (the CSS is generated), and the page is `no-store` so a nonce is never reused;
 * - `worker-src blob:`: Redoc's search index runs in a worker its own bundle creates from a
 *   blob URL; only a script this policy already allows can make one;
 * - `connect-src 'self'` (it fetches /openapi.json), `img-src 'self' data:`, and nothing else.
 */
export function docsRouter(options: { title: string; https: boolean }): Router {
  redocBundle ??= loadRedoc();
  const redoc = redocBundle;
  const router = express.Router();
  const asset = (body: string) => (_req: Request, res: Response) => {
    // Renderer files change only with a deployment; a day's cache is safe, revalidated after.
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.type('application/javascript').send(body);
  };
  router.get(REDOC_PATH, asset(redoc));
  router.get(INIT_PATH, asset(INIT_SCRIPT));
  router.get('/docs', (_req, res) => {
    const nonce = randomBytes(18).toString('base64');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader(
      'Content-Security-Policy',
      pagePolicy({ https: options.https, selfAssets: true, styleNonce: nonce, blobWorkers: true }),
    );
    res.type('html').send(docsHtml(options.title, nonce));
  });
  return router;
}
