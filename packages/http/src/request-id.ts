import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's well-formed X-Request-Id (for tracing across services) or makes one. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  const incoming = req.get('X-Request-Id');
  const id =
    incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : `req_${randomUUID().replaceAll('-', '')}`;
  res.locals.requestId = id;
  res.setHeader('X-Request-Id', id);
  next();
}
