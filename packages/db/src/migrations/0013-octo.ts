import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// OCTO supplier API (issue 12): what a reseller connection (an API token of role RESELLER, or
// ADMIN) adds to the bookings it makes. `uuid` is the reseller's idempotency key and address of
// the booking, unique per connection; `unit_items` keeps each participant's unit item uuid,
// reference and contact; `contact` is the booking contact as the reseller sent it.
const UP = `
create table octo_bookings (
  booking_id text primary key references bookings (id),
  workspace_id text not null references workspaces (id),
  connection_id text not null references api_tokens (id),
  uuid text not null,
  reseller_reference text,
  contact jsonb,
  unit_items jsonb not null default '[]',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint octo_bookings_connection_uuid_key unique (connection_id, uuid)
);
create index octo_bookings_reseller_reference_idx on octo_bookings (connection_id, reseller_reference)
  where reseller_reference is not null
`;

const DOWN = `
drop table octo_bookings
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
