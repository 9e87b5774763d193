export { createDatabase, type Database } from './database.js';
export { migrateLatest } from './migrations/index.js';
export { getOrCreateSecret } from './secrets.js';
export { createStores, createUnitOfWork, type Repositories } from './stores/index.js';
