import type { DomainError, ErrorCode, ErrorDetail } from '@travelops/domain/shared';
import type { Response } from 'express';

/** The one place an error code becomes an HTTP status. */
export function statusForCode(code: ErrorCode): number {
  switch (code) {
    case 'VALIDATION_ERROR':
      return 400;
    case 'UNAUTHENTICATED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'CONFLICT':
      return 409;
    case 'UNPROCESSABLE':
      return 422;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL_ERROR':
      return 500;
  }
}

/** An error raised inside the HTTP pipeline (bad body, bad cursor) that already knows its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: DomainError,
  ) {
    super(error.message);
  }
}

export const badRequest = (message: string, field: string, issue: string, status = 400) =>
  new HttpError(status, { code: 'VALIDATION_ERROR', message, details: [{ field, issue }] });

export function sendError(res: Response, error: DomainError, status = statusForCode(error.code)): void {
  const body: { code: ErrorCode; message: string; details?: ErrorDetail[]; requestId?: string } = {
    code: error.code,
    message: error.message,
  };
  if (error.details?.length) body.details = error.details;
  const requestId = res.getHeader('X-Request-Id');
  if (typeof requestId === 'string') body.requestId = requestId;
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  res.status(status).json({ error: body });
}
