import { SESSION_COOKIE, SESSION_LIFETIME_MS, SIGN_IN_CHALLENGE_MS } from '@travelops/auth';
import type { Request, Response } from 'express';

/** One cookie's value from the `Cookie` header (values we set are base62: no decoding). */
function readCookie(req: Request, name: string): string | undefined {
  const header = req.get('Cookie');
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

/** Decisions §6: HttpOnly, SameSite=Lax, Path=/, Secure when the service is served over https. */
const attributes = (publicBaseUrl: string) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: publicBaseUrl.startsWith('https:'),
  path: '/',
});

export function setSessionCookie(res: Response, secret: string, publicBaseUrl: string): void {
  res.cookie(SESSION_COOKIE, secret, { ...attributes(publicBaseUrl), maxAge: SESSION_LIFETIME_MS });
}

export function clearSessionCookie(res: Response, publicBaseUrl: string): void {
  res.clearCookie(SESSION_COOKIE, attributes(publicBaseUrl));
}

export const readSessionCookie = (req: Request) => readCookie(req, SESSION_COOKIE);

/** A password sign-in waiting for its second factor (a signed challenge, see `signChallenge`), on `/auth` only. */
const CHALLENGE_COOKIE = 'tops_2fa';
const challengeAttributes = (publicBaseUrl: string) => ({ ...attributes(publicBaseUrl), path: '/auth' });

export function setChallengeCookie(res: Response, value: string, publicBaseUrl: string): void {
  res.cookie(CHALLENGE_COOKIE, value, {
    ...challengeAttributes(publicBaseUrl),
    maxAge: SIGN_IN_CHALLENGE_MS,
  });
}

export function clearChallengeCookie(res: Response, publicBaseUrl: string): void {
  res.clearCookie(CHALLENGE_COOKIE, challengeAttributes(publicBaseUrl));
}

export const readChallengeCookie = (req: Request) => readCookie(req, CHALLENGE_COOKIE);
