export {
  type ApiTokenCache,
  /** @public What issueApiToken, revokeApiToken and authenticateBearer are given: the caller builds it. */
  type ApiTokenDeps,
  type ApiTokenPrincipal,
  authenticateBearer,
  createApiTokenCache,
  hashTokenSecret,
  /** @public The argument of issueApiToken: a caller that builds it before the call names it. */
  type IssueApiTokenInput,
  issueApiToken,
  type Principal,
  revokeApiToken,
  /** @public One side of Principal: code that narrows a principal by its `kind` names it. */
  type SessionPrincipal,
} from './api-tokens.js';
export { addMember } from './members.js';
export { authorize, type Permission, ROLE_PERMISSIONS } from './permissions.js';
export {
  authenticateSession,
  csrfTokenMatches,
  deriveCsrfToken,
  logIn,
  logOut,
  recheckCredential,
  SESSION_COOKIE,
  SESSION_LIFETIME_MS,
  /** @public What logIn answers for an e-mail with a second factor: no session yet. */
  type SecondFactorNeeded,
  /** @public What authenticateSession and logOut are given: the caller builds it. */
  type SessionDeps,
  /** @public What logIn answers: the session and the cookie's secret, which exists only here. */
  type SignedIn,
  sessionPrincipal,
} from './sessions.js';
export {
  completeSignIn,
  confirmTwoFactor,
  disableTwoFactor,
  enrolTwoFactor,
  readChallenge,
  SIGN_IN_CHALLENGE_MS,
  signChallenge,
  totpCode,
} from './two-factor.js';
