import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/**
 * helmet's headers (with our Content-Security-Policy instead of its own) as one middleware.
 * helmet's answer does not depend on the request, so it is asked once, at start, and every
 * request then gets the same header list in one step rather than through a dozen middlewares.
 */
export function securityHeaders(contentSecurityPolicy: string) {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers.push([name, String(value)]);
    },
    removeHeader() {},
  };
  helmet({ contentSecurityPolicy: false })(
    {} as Request,
    recorder as unknown as Response,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  if (headers.length === 0)
    throw new Error('helmet set no header: its middleware is not synchronous any more.');
  headers.push(['Content-Security-Policy', contentSecurityPolicy]);
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
