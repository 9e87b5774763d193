export {
  API_TOKEN_PREFIX,
  type ApiTokenDeps,
  authenticateBearer,
  generateApiTokenSecret,
  hashTokenSecret,
  type IssueApiTokenInput,
  issueApiToken,
  type Principal,
  revokeApiToken,
  tokenDisplayPrefix,
} from './api-tokens.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { authorize, can, PERMISSIONS, type Permission, ROLE_PERMISSIONS } from './permissions.js';
export { generatePublicToken } from './public-tokens.js';
