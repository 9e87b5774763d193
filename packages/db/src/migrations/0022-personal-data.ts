import type { Knex } from 'knex';

// Personal data (issue 31 item 3, decisions §13): when a customer was erased, and how long a
// workspace keeps a customer after their last departure (null: kept until erased by hand).
export const up = async (knex: Knex): Promise<void> => {
  await knex.raw(`alter table customers add column erased_at timestamptz`);
  await knex.raw(`alter table workspaces add column customer_retention_months integer
    constraint workspaces_customer_retention_months_check
    check (customer_retention_months between 1 and 1200)`);
  // The retention job reads the customers not erased of the workspaces that keep a limit.
  await knex.raw(`create index customers_not_erased_idx on customers (workspace_id, created_at)
    where erased_at is null`);
};

export const down = async (knex: Knex): Promise<void> => {
  await knex.raw('drop index customers_not_erased_idx');
  await knex.raw('alter table workspaces drop column customer_retention_months');
  await knex.raw('alter table customers drop column erased_at');
};
