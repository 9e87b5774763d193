import { afterAll, beforeAll, it } from 'vitest';
import { book, bookingsPath, setStatus } from './booking-fixtures.js';
import { createDeparture, createTour, type TestWorkspace } from './fixtures.js';
import { startTestApi, type TestApi } from './harness.js';

let t: TestApi;
let ws: TestWorkspace;
let departure: any;
beforeAll(async () => {
  t = await startTestApi();
  ws = await t.createWorkspace('ADMIN');
  const tour = await createTour(t, ws, { basePrice: 5000 });
  departure = await createDeparture(t, ws, tour.id, { capacity: 1000 });
});
afterAll(() => t.close());

it('probe', async () => {
  const time = async (label: string, fn: () => Promise<unknown>) => {
    const s = performance.now();
    for (let i = 0; i < 20; i++) await fn();
    console.log('T', label, ((performance.now() - s) / 20).toFixed(1));
  };
  const b = await book(t, ws, departure.id, { paymentMode: 'MANUAL' });
  await time('get', () => t.request('GET', bookingsPath(ws, b.id), { token: ws.token }));
  await time('tours', () => t.request('GET', `/workspaces/${ws.workspaceId}/tours`, { token: ws.token }));
  await time('book', () => book(t, ws, departure.id));
  await time('bookmanual', () => book(t, ws, departure.id, { paymentMode: 'MANUAL' }));
  await time('dep', () => createDeparture(t, ws, departure.tourId));
  await time('cancel', async () =>
    setStatus(t, ws, (await book(t, ws, departure.id, { paymentMode: 'MANUAL' })).id, 'CANCELLED'),
  );
  await time('raw', () => t.api.database.knex.raw('select 1'));
  await time('rawtx', () =>
    t.api.database.knex.transaction(async (trx) => {
      await trx.raw('select 1');
      await trx('workspaces').where({ id: 'x' }).update({ name: 'y' });
    }),
  );
});
