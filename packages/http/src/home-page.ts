import { escapeHtml } from '@travelops/html';
import type { Response } from 'express';
import { pagePolicy } from './csp.js';

const STYLE =
  'body{font:16px/1.55 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1c2430}' +
  'h1 small{color:#5a6472;font-weight:normal;font-size:.6em}code{background:#f1f3f5;padding:0 .25rem;border-radius:3px}' +
  'li{margin:.35rem 0}a{color:#0b57d0}';

/** An HTML page and the Content-Security-Policy it is sent with. */
export interface HtmlPage {
  html: string;
  csp: string;
}

/**
 * `GET /`: what this is and where to go, for whoever opens the base URL in a browser. Its
 * policy allows its one inline style (by hash) and nothing else: no script at all.
 */
export function homePage(info: { title: string; version: string }, https: boolean): HtmlPage {
  const title = escapeHtml(info.title);
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><link rel="icon" href="data:,"><style>${STYLE}</style></head><body>
<h1>${title} <small>${escapeHtml(info.version)}</small></h1>
<p>A REST interface over JSON for tour operators and their integrators: tours, departures, customers, bookings,
public booking endpoints and signed webhooks. Authenticated operations take
<code>Authorization: Bearer tops_...</code> under <code>/workspaces/{workspaceId}/</code>.</p>
<ul>
<li><a href="/app/">Operator console</a>: sign in to run the day (departures, bookings, check-in, API keys)</li>
<li><a href="/docs">API reference</a>: every operation with its parameters, schemas and examples</li>
<li><a href="/openapi.json">/openapi.json</a>: the contract (OpenAPI 3.1), for code generators</li>
<li><a href="/healthz">/healthz</a> (the process is up) and <a href="/readyz">/readyz</a> (its database and Redis answer)</li>
</ul>
</body></html>`;
  return { html, csp: pagePolicy({ https, inlineStyles: [STYLE] }) };
}

/** Sends a page with its own policy (it replaces the API's default one). */
export function sendPage(res: Response, page: HtmlPage): void {
  res.setHeader('Content-Security-Policy', page.csp);
  res.type('html').send(page.html);
}
