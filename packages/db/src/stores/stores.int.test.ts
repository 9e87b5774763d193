import { createTestDatabase } from '../testing.js';
import { describeStoreContract } from './stores.contract.js';

describeStoreContract('PostgreSQL', async () => {
  const test = await createTestDatabase();
  return { knex: test.database.knex, close: test.drop, concurrentSessions: true };
});
