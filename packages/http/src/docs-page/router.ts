import express, { type Response, type Router } from 'express';
import { pagePolicy } from '../csp.js';
import { buildReferencePages, DOCS_PATH, type ReferencePages } from './pages.js';
import { REFERENCE_STYLE } from './style.js';

/**
 * `/docs` and `/docs/{tag}`: the OpenAPI document as plain HTML pages, rendered here on the
 * server once, on the first visit. A page holds one tag's operations with every request field
 * open, so a browser has little to lay out and nothing to run: the policy allows no script at
 * all and the one inline style by its hash. Every text taken from the document is escaped.
 */
export function docsRouter(options: { document: object; https: boolean }): Router {
  const router = express.Router();
  const policy = pagePolicy({ https: options.https, inlineStyles: [REFERENCE_STYLE] });
  let pages: ReferencePages | undefined;
  const send = (res: Response, html: string) => {
    res.setHeader('Content-Security-Policy', policy);
    // The pages change only with a deployment; revalidating keeps a new one from being missed.
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  };
  router.get(DOCS_PATH, (_req, res) => {
    pages ??= buildReferencePages(options.document);
    send(res, pages.index);
  });
  router.get(`${DOCS_PATH}/:tag`, (req, res, next) => {
    pages ??= buildReferencePages(options.document);
    const page = pages.tags.get(String(req.params.tag));
    if (page === undefined) return next();
    send(res, page);
  });
  return router;
}
