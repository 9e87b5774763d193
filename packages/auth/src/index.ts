export {
  API_TOKEN_PREFIX,
  type ApiTokenDeps,
  type ApiTokenPrincipal,
  authenticateBearer,
  generateApiTokenSecret,
  hashTokenSecret,
  type IssueApiTokenInput,
  isLive,
  issueApiToken,
  type Principal,
  revokeApiToken,
  type SessionPrincipal,
  tokenDisplayPrefix,
} from './api-tokens.js';
export { addMember } from './members.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { authorize, can, PERMISSIONS, type Permission, ROLE_PERMISSIONS } from './permissions.js';
export { generatePublicToken } from './public-tokens.js';
export {
  authenticateSession,
  csrfTokenMatches,
  deriveCsrfToken,
  logIn,
  logOut,
  recheckCredential,
  SESSION_COOKIE,
  SESSION_IDLE_MS,
  SESSION_LIFETIME_MS,
  type SessionDeps,
  type SignedIn,
  sessionPrincipal,
} from './sessions.js';
