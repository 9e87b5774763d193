import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Ticket types, schedules, cancellation policy and partner sync (issue "Sell the way
// operators sell"). Conventions of 0001: ids text collate "C", timestamps timestamptz(3).
const UP = `
alter table tours add column time_zone text not null default 'UTC';
alter table tours add column ticket_types jsonb not null default '[]';
alter table tours add column cancellation_policy jsonb not null
  default '{"cutoffHours": 24, "refund": "FULL", "refundPercent": null}';

create table schedules (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  tour_id text collate "C" not null,
  days_of_week text[] not null,
  times text[] not null,
  starts_on date not null,
  ends_on date not null,
  capacity integer,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint schedules_tour_fkey foreign key (workspace_id, tour_id)
    references tours (workspace_id, id) on delete cascade,
  constraint schedules_range_check check (ends_on >= starts_on),
  unique (workspace_id, id)
);
create index schedules_workspace_tour_idx on schedules (workspace_id, tour_id, created_at desc, id desc);

alter table availability add column prices jsonb not null default '[]';
alter table availability add column schedule_id text collate "C";
alter table availability add constraint availability_schedule_fkey foreign key (workspace_id, schedule_id)
  references schedules (workspace_id, id) on delete set null (schedule_id);
-- A schedule makes at most one departure per start: generating twice makes none twice.
create unique index availability_schedule_start_key on availability (schedule_id, starts_at)
  where schedule_id is not null;

alter table bookings add column external_reference text;
create unique index bookings_workspace_external_reference_key on bookings (workspace_id, external_reference)
  where external_reference is not null;

-- Every participant shows its ticket type and price: earlier bookings sold ADULT seats at
-- the tour's base price, with no ticket type.
update bookings b set participants = (
  select coalesce(jsonb_agg(p || jsonb_build_object('ticketTypeId', null, 'price', t.base_price)
    order by ord), '[]'::jsonb)
  from jsonb_array_elements(b.participants) with ordinality as e(p, ord)
) from tours t where t.id = b.tour_id
`;

const DOWN = `
drop index bookings_workspace_external_reference_key;
alter table bookings drop column external_reference;
drop index availability_schedule_start_key;
alter table availability drop constraint availability_schedule_fkey;
alter table availability drop column schedule_id;
alter table availability drop column prices;
drop table schedules;
alter table tours drop column cancellation_policy;
alter table tours drop column ticket_types;
alter table tours drop column time_zone
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
