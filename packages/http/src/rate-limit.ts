import { createHmac } from 'node:crypto';
import { isIPv6 } from 'node:net';
import type { DomainError } from '@travelops/domain/shared';
import type { NextFunction, Request, Response } from 'express';

/**
 * What is counted (decisions §7): `credential` per API token or session on authenticated
 * routes; `ip` per client address on `/public/`, on requests that fail authentication and on
 * everything else; `login-account` (per e-mail and client IP together) and `login-ip` count
 * sign-in attempts.
 */
export type RateLimitPolicy = 'credential' | 'ip' | 'login-account' | 'login-ip';

export interface RateLimitOutcome {
  allowed: boolean;
  /** Requests allowed per window. */
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1 while a window is open). */
  resetSeconds: number;
}

/**
 * The adapter's port to the counters; `apps/api` implements it (Redis shared by every
 * instance, or in-process). Implementations never reject: a broken store falls back.
 */
export interface RateLimiter {
  /** Counts one request against `key`. */
  consume(policy: RateLimitPolicy, key: string): Promise<RateLimitOutcome>;
  /** The current state without counting. */
  peek(policy: RateLimitPolicy, key: string): Promise<RateLimitOutcome>;
  /** Forgets `key` (a successful sign-in clears its account's attempts). */
  reset(policy: RateLimitPolicy, key: string): Promise<void>;
}

/**
 * The client as rate limits see it: `req.ip` (X-Forwarded-For only from trusted proxies),
 * IPv4-mapped IPv6 as IPv4, and IPv6 by its /64 (one subscriber's whole network) so rotating
 * addresses inside a prefix buys nothing.
 */
export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1] as string;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(Math.max(missing, 0)).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The client (as `clientKey` sees it) for one purpose, as a keyed hash: what tells guests
 * apart where something is stored (a hold, an Idempotency-Key's scope), and no address is.
 */
export const clientTag = (secret: string, purpose: string, ip: string | undefined): string =>
  createHmac('sha256', secret)
    .update(`${purpose}:${clientKey(ip)}`)
    .digest('base64url')
    .slice(0, 32);

/** Set on `res.locals` once the request has been counted, so nothing counts it twice. */
const COUNTED = 'rateLimit';

export function setRateLimitHeaders(res: Response, outcome: RateLimitOutcome): void {
  res.locals[COUNTED] = outcome;
  res.setHeader('X-RateLimit-Limit', String(outcome.limit));
  res.setHeader('X-RateLimit-Remaining', String(outcome.remaining));
  res.setHeader('X-RateLimit-Reset', String(outcome.resetSeconds));
}

export const isCounted = (res: Response): boolean => res.locals[COUNTED] !== undefined;

/** The 429 error, with `Retry-After` set; the X-RateLimit headers are the refusing limit's. */
export function rateLimited(res: Response, outcome: RateLimitOutcome): DomainError {
  setRateLimitHeaders(res, outcome);
  res.setHeader('Retry-After', String(Math.max(outcome.resetSeconds, 1)));
  return {
    code: 'RATE_LIMITED',
    message: `Rate limit exceeded: retry after ${Math.max(outcome.resetSeconds, 1)} seconds.`,
  };
}

/**
 * Counts the request against the caller's IP unless it was counted already (routes count
 * their own, by credential). `peek` mode reports without counting: health probes.
 */
export function limitByIp(
  limiter: RateLimiter,
  onRefused: (res: Response, error: DomainError) => void,
  mode: 'consume' | 'peek' = 'consume',
) {
  return async (req: Request, res: Response, next: NextFunction) => {
    if (isCounted(res)) return next();
    const key = clientKey(req.ip);
    const outcome = mode === 'peek' ? await limiter.peek('ip', key) : await limiter.consume('ip', key);
    if (!outcome.allowed && mode === 'consume') return onRefused(res, rateLimited(res, outcome));
    setRateLimitHeaders(res, outcome);
    next();
  };
}
