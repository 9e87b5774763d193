import { afterAll, beforeAll, expect, it } from 'vitest';
import { newBooking, newBookingScene } from '../stores/contract-fixtures.js';
import { createTestDatabase, type TestDatabase } from '../testing.js';
import * as cancellation from './0010-cancellation.js';

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
});
afterAll(() => test.drop());

it('bookings made before 0010-cancellation take the policy their tour has when it runs', async () => {
  const knex = test.database.knex;
  const scene = await newBookingScene(knex);
  const booking = await newBooking(knex, scene);
  const policy = { cutoffHours: 72, refund: 'PARTIAL', refundPercent: 40 };
  await cancellation.down(knex);
  await knex('tours')
    .where({ id: scene.tourId })
    .update({ cancellation_policy: JSON.stringify(policy) });
  await cancellation.up(knex);
  const row = await knex('bookings').where({ id: booking.id }).first('cancellation_policy');
  expect(row.cancellation_policy).toEqual(policy);
  const column = await knex('information_schema.columns')
    .where({ table_name: 'bookings', column_name: 'cancellation_policy' })
    .first('is_nullable');
  expect(column.is_nullable).toBe('NO');
});
