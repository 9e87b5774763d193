import { createDatabase } from '../database.js';
import { migrateLatest } from '../migrations/index.js';
import { describeStoreContract } from './stores.contract.js';

describeStoreContract('in-memory PGlite', async () => {
  const database = await createDatabase({ dataDir: 'memory://' });
  await migrateLatest(database.knex);
  return { knex: database.knex, close: database.close, concurrentSessions: false };
});
