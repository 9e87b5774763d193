export { describeConnectionError } from './connection-errors.js';
export {
  createDatabase,
  type Database,
  /** @public createDatabase's argument: the composition root builds it from its env. */
  type DatabaseConfig,
} from './database.js';
export { migrateLatest } from './migrations/index.js';
/** @public Database.serve's answer: the loopback port local tools connect to. */
export type { PgliteServer } from './pglite-server.js';
export { getOrCreateSecret } from './secrets.js';
export { createStores, createUnitOfWork, type Repositories } from './unit-of-work.js';
