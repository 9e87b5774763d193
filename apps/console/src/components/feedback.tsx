import type { ReactNode } from 'react';
import { ApiError } from '../api';

/** Shown while a page's data is on its way. */
export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p className="loading" role="status">
      {what}…
    </p>
  );
}

/** Shown when a list has nothing in it, saying what would be there. */
export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

const CODE_WORDS: Record<string, string> = {
  VALIDATION_ERROR: 'Some fields need attention.',
  UNAUTHENTICATED: 'You are signed out.',
  FORBIDDEN: 'Your role does not allow this.',
  NOT_FOUND: 'Not found: it may have been removed.',
  CONFLICT: 'Someone changed this at the same time, or it is no longer available.',
  UNPROCESSABLE: 'This cannot be done in its current state.',
  RATE_LIMITED: 'Too many requests: wait a moment and try again.',
  INTERNAL_ERROR: 'Something went wrong on the server. Try again.',
};

/** An error in words: what kind, then the server's own message (and its request id, for support). */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const apiError = error instanceof ApiError ? error : null;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="notice notice-error" role="alert">
      <p>
        <strong>{title ?? (apiError ? CODE_WORDS[apiError.code] : 'Something went wrong.')}</strong> {message}
      </p>
      {apiError?.requestId && <p className="muted small">Request {apiError.requestId}</p>}
    </div>
  );
}

/** A quiet confirmation after a change the server accepted. */
export function Success({ children }: { children: ReactNode }) {
  return (
    <p className="notice notice-success" role="status">
      {children}
    </p>
  );
}
