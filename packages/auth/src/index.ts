export {
  type ApiTokenPrincipal,
  authenticateBearer,
  hashTokenSecret,
  issueApiToken,
  type Principal,
  revokeApiToken,
} from './api-tokens.js';
export { addMember } from './members.js';
export { authorize, type Permission } from './permissions.js';
export {
  authenticateSession,
  csrfTokenMatches,
  deriveCsrfToken,
  logIn,
  logOut,
  recheckCredential,
  SESSION_COOKIE,
  SESSION_LIFETIME_MS,
  sessionPrincipal,
} from './sessions.js';
