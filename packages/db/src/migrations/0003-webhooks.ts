import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Conventions of 0001: ids are text collate "C", timestamps timestamptz(3).
const UP = `
create table webhook_endpoints (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  url text not null,
  events text[] not null,
  description text,
  enabled boolean not null default true,
  disabled_reason text,
  secret text not null,
  previous_secret text,
  previous_secret_expires_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  -- Target of deliveries' composite foreign key: a delivery cannot point at another workspace's endpoint.
  constraint webhook_endpoints_workspace_id_key unique (workspace_id, id)
);
create index webhook_endpoints_workspace_created_idx on webhook_endpoints (workspace_id, created_at desc, id desc);

-- One row per (endpoint, event): the unique pair makes fan-out idempotent. event_seq and
-- aggregate_id are copied from the outbox so claiming can keep order per aggregate without a join.
-- The event reference has no cascade: an outbox event is kept while a delivery needs its envelope.
create table webhook_deliveries (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  endpoint_id text collate "C" not null,
  event_id text collate "C" not null references outbox_events (id),
  event_type text not null,
  aggregate_id text collate "C" not null,
  event_seq bigint not null,
  status text not null default 'PENDING',
  attempts integer not null default 0,
  next_attempt_at timestamptz(3),
  locked_until timestamptz(3),
  last_attempt_at timestamptz(3),
  last_status_code integer,
  last_error text,
  delivered_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  constraint webhook_deliveries_endpoint_fkey foreign key (workspace_id, endpoint_id)
    references webhook_endpoints (workspace_id, id) on delete cascade,
  constraint webhook_deliveries_endpoint_event_key unique (endpoint_id, event_id),
  constraint webhook_deliveries_status_check check (status in ('PENDING', 'SUCCEEDED', 'FAILED')),
  constraint webhook_deliveries_attempts_check check (attempts >= 0)
);
-- The claim query's scan: due PENDING deliveries only, so finished ones cost nothing.
create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'PENDING';
-- "Is an earlier event of this aggregate still pending for this endpoint?"
create index webhook_deliveries_order_idx on webhook_deliveries (endpoint_id, aggregate_id, event_seq)
  where status = 'PENDING';
create index webhook_deliveries_endpoint_created_idx on webhook_deliveries (endpoint_id, created_at desc, id desc);
create index webhook_deliveries_event_idx on webhook_deliveries (event_id);
`;

const DOWN = `
drop table webhook_deliveries;
drop table webhook_endpoints;
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
