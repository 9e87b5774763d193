import type { Knex } from 'knex';

// Free public bookings count against the per-client brake like unpaid holds (issue 23): the
// count reads a client's live holds and its free bookings on one departure, and a recipient's
// free public confirmations of the last hour.
export const up = async (knex: Knex): Promise<void> => {
  await knex.raw(`create index bookings_free_public_idx on bookings (availability_id, holder_key)
    where status = 'CONFIRMED' and total_amount = 0 and holder_key is not null`);
  await knex.raw(`create index bookings_free_public_recipient_idx on bookings (workspace_id, customer_id, created_at)
    where total_amount = 0 and holder_key is not null`);
};

export const down = async (knex: Knex): Promise<void> => {
  await knex.raw('drop index bookings_free_public_recipient_idx');
  await knex.raw('drop index bookings_free_public_idx');
};
