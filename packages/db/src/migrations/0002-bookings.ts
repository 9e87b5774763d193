import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Conventions of 0001: ids are text collate "C" (bytewise keyset order), timestamps are
// timestamptz(3) (what the API shows is what is stored), amounts are bigint minor units.
const UP = `
alter table tours add column add_ons jsonb not null default '[]';

-- Targets of bookings' composite foreign keys: a booking cannot point at another workspace's rows.
alter table availability add constraint availability_workspace_id_key unique (workspace_id, id);
alter table customers add constraint customers_workspace_id_key unique (workspace_id, id);

create table bookings (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  customer_id text collate "C" not null,
  availability_id text collate "C" not null,
  tour_id text collate "C" not null,
  -- Copied from the departure (and moved with it) to sort and filter lists without a join.
  starts_at timestamptz(3) not null,
  status text not null,
  payment_status text not null,
  payment_mode text not null,
  total_amount bigint not null,
  currency char(3) not null,
  participant_count integer not null,
  participants jsonb not null,
  add_ons jsonb not null default '[]',
  amount_paid bigint not null default 0,
  amount_refunded bigint not null default 0,
  payment_intent_id text,
  public_token text,
  notes text,
  expires_at timestamptz(3),
  confirmed_at timestamptz(3),
  cancelled_at timestamptz(3),
  cancellation_reason text,
  version integer not null default 1,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint bookings_customer_fkey foreign key (workspace_id, customer_id) references customers (workspace_id, id),
  constraint bookings_availability_fkey foreign key (workspace_id, availability_id) references availability (workspace_id, id),
  constraint bookings_tour_fkey foreign key (workspace_id, tour_id) references tours (workspace_id, id),
  constraint bookings_public_token_key unique (public_token),
  constraint bookings_amounts_check check (
    total_amount >= 0 and amount_paid >= 0 and amount_refunded >= 0 and amount_refunded <= amount_paid
  ),
  constraint bookings_participant_count_check check (participant_count >= 1)
);
create index bookings_workspace_created_idx on bookings (workspace_id, created_at desc, id desc);
create index bookings_workspace_starts_idx on bookings (workspace_id, starts_at, id);
create index bookings_workspace_total_idx on bookings (workspace_id, total_amount, id);
create index bookings_workspace_updated_idx on bookings (workspace_id, updated_at, id);
create index bookings_expired_holds_idx on bookings (expires_at, id) where status = 'PENDING';
create index bookings_availability_status_idx on bookings (availability_id, status);
create index bookings_workspace_customer_idx on bookings (workspace_id, customer_id);

-- History and payments are read in the order they were written: seq, not a timestamp, since
-- entries written in one millisecond (or one transaction) would tie and ids are random.
-- created_at is the moment of the write (clock_timestamp), so it agrees with that order even
-- for a transaction that started earlier and waited for the booking's lock.
create table booking_history (
  seq bigint generated always as identity,
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  booking_id text collate "C" not null references bookings (id),
  from_status text,
  to_status text not null,
  reason text,
  actor_type text not null,
  actor_id text,
  created_at timestamptz(3) not null default clock_timestamp()
);
create index booking_history_booking_idx on booking_history (booking_id, seq);

create table payment_sessions (
  id text collate "C" primary key,
  token text not null,
  workspace_id text collate "C" not null references workspaces (id),
  booking_id text collate "C" not null references bookings (id),
  amount bigint not null,
  currency char(3) not null,
  purpose text not null,
  status text not null,
  expires_at timestamptz(3) not null,
  created_at timestamptz(3) not null default now(),
  completed_at timestamptz(3),
  constraint payment_sessions_token_key unique (token),
  constraint payment_sessions_amount_check check (amount > 0)
);
create index payment_sessions_booking_idx on payment_sessions (booking_id, status);

create table payments (
  seq bigint generated always as identity,
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  booking_id text collate "C" not null references bookings (id),
  session_id text collate "C" references payment_sessions (id),
  kind text not null,
  amount bigint not null,
  currency char(3) not null,
  reason text,
  created_at timestamptz(3) not null default clock_timestamp(),
  constraint payments_kind_check check (kind in ('PAYMENT', 'REFUND')),
  constraint payments_amount_check check (amount > 0)
);
create index payments_booking_idx on payments (booking_id, seq);
-- A session is paid at most once, whatever the code does with a replayed completion.
create unique index payments_session_payment_key on payments (session_id) where kind = 'PAYMENT';

-- seq orders delivery. It is taken at insert, not at commit, so a reader may briefly see a later
-- seq before an earlier one commits; per aggregate the writers hold the booking's lock, so
-- one booking's events commit in seq order.
create table outbox_events (
  seq bigint generated always as identity,
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  aggregate_id text collate "C" not null,
  type text not null,
  payload jsonb not null,
  created_at timestamptz(3) not null default now(),
  -- Set once the event has been fanned out to the endpoints' deliveries.
  published_at timestamptz(3),
  constraint outbox_events_seq_key unique (seq)
);
create index outbox_events_aggregate_idx on outbox_events (aggregate_id, seq);
create index outbox_events_unpublished_idx on outbox_events (seq) where published_at is null;

create table idempotency_keys (
  scope text not null,
  key text not null,
  fingerprint text not null,
  response_status integer not null,
  response_body jsonb,
  created_at timestamptz(3) not null default now(),
  constraint idempotency_keys_pkey primary key (scope, key)
);
create index idempotency_keys_created_idx on idempotency_keys (created_at);
`;

const DOWN = `
drop table idempotency_keys;
drop table outbox_events;
drop table payments;
drop table payment_sessions;
drop table booking_history;
drop table bookings;
alter table customers drop constraint customers_workspace_id_key;
alter table availability drop constraint availability_workspace_id_key;
alter table tours drop column add_ons;
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
