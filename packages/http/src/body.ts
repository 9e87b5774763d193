import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { badRequest, type HttpError } from './errors.js';

const MAX_JSON_DEPTH = 32;

function hasBody(req: Request): boolean {
  return req.get('Transfer-Encoding') !== undefined || Number(req.get('Content-Length') ?? 0) > 0;
}

/** Deeper than any contract needs; refusing it bounds the work of validation. */
function depthExceeds(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * JSON bodies only, at most `limitBytes`: a wrong content type is 415, an oversized body 413,
 * malformed or absurdly nested JSON 400 — each in the error envelope.
 */
export function jsonBody(limitBytes: number): RequestHandler {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) {
      req.body = undefined;
      return next();
    }
    if (!req.is('application/json')) {
      return next(
        badRequest('Send the body as application/json.', 'Content-Type', 'unsupported_media_type', 415),
      );
    }
    parse(req, res, (err?: unknown) => {
      if (err) return next(translateParseError(err));
      if (depthExceeds(req.body, MAX_JSON_DEPTH)) {
        return next(badRequest(`JSON nested deeper than ${MAX_JSON_DEPTH} levels.`, 'body', 'too_deep'));
      }
      next();
    });
  };
}

function translateParseError(err: unknown): HttpError {
  const type = (err as { type?: string }).type;
  switch (type) {
    case 'entity.too.large':
      return badRequest('The body is larger than 1 MB.', 'body', 'too_large', 413);
    case 'encoding.unsupported':
      return badRequest(
        'Send the body without a Content-Encoding, or gzip/deflate/br.',
        'Content-Encoding',
        'unsupported_encoding',
        415,
      );
    case 'charset.unsupported':
      return badRequest('Send the body as UTF-8 JSON.', 'Content-Type', 'unsupported_charset', 415);
    case 'request.aborted':
    case 'request.size.invalid':
      return badRequest('The body was incomplete.', 'body', 'incomplete');
    default:
      return badRequest('The body is not valid JSON.', 'body', 'invalid_json');
  }
}
