import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Conventions of 0001: ids are text collate "C", timestamps timestamptz(3). Composite foreign
// keys (workspace_id, x_id) make a reference to another workspace's record impossible.
const UP = `
-- members (workspace_id, id) is unique since 0005-crm.

create table blackout_dates (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  tour_id text collate "C",
  date date not null,
  reason text,
  created_at timestamptz(3) not null default now(),
  constraint blackout_dates_tour_fkey foreign key (workspace_id, tour_id)
    references tours (workspace_id, id) on delete cascade
);
-- One row per day and scope; '' stands for "every tour" so the index covers both scopes.
create unique index blackout_dates_scope_date_key on blackout_dates (workspace_id, coalesce(tour_id, ''), date);
create index blackout_dates_workspace_date_idx on blackout_dates (workspace_id, date, id);

create table guide_profiles (
  member_id text collate "C" primary key,
  workspace_id text collate "C" not null,
  is_guide boolean not null default true,
  display_name text not null,
  phone text,
  languages text[] not null default '{}',
  certifications text[] not null default '{}',
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint guide_profiles_member_fkey foreign key (workspace_id, member_id)
    references members (workspace_id, id) on delete cascade
);
create index guide_profiles_workspace_created_idx on guide_profiles (workspace_id, created_at desc, member_id desc);

create table guide_time_off (
  id text collate "C" primary key,
  workspace_id text collate "C" not null,
  member_id text collate "C" not null,
  starts_at timestamptz(3) not null,
  ends_at timestamptz(3) not null,
  reason text,
  created_at timestamptz(3) not null default now(),
  constraint guide_time_off_member_fkey foreign key (workspace_id, member_id)
    references members (workspace_id, id) on delete cascade,
  constraint guide_time_off_interval_check check (ends_at > starts_at)
);
create index guide_time_off_member_starts_idx on guide_time_off (workspace_id, member_id, starts_at, id);

create table vehicles (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  name text not null,
  registration text,
  seats integer not null,
  status text not null default 'ACTIVE',
  notes text,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint vehicles_status_check check (status in ('ACTIVE', 'MAINTENANCE', 'RETIRED')),
  constraint vehicles_seats_check check (seats > 0)
);
create unique index vehicles_workspace_registration_key on vehicles (workspace_id, upper(registration))
  where registration is not null;
create index vehicles_workspace_created_idx on vehicles (workspace_id, created_at desc, id desc);

create table vendors (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  name text not null,
  category text not null,
  contact_name text,
  email text,
  phone text,
  notes text,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create index vendors_workspace_created_idx on vendors (workspace_id, created_at desc, id desc);

-- Assignment look-ups: "which departures is this member or vehicle on?"
create index availability_guide_idx on availability (workspace_id, guide_id, starts_at) where guide_id is not null;
create index availability_driver_idx on availability (workspace_id, driver_id, starts_at) where driver_id is not null;
create index availability_vehicle_idx on availability (workspace_id, vehicle_id, starts_at) where vehicle_id is not null;

create table incidents (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  availability_id text collate "C",
  booking_id text collate "C" references bookings (id),
  severity text not null,
  status text not null,
  title text not null,
  description text,
  occurred_at timestamptz(3) not null,
  reported_by text not null,
  resolved_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint incidents_availability_fkey foreign key (workspace_id, availability_id)
    references availability (workspace_id, id),
  constraint incidents_severity_check check (severity in ('LOW', 'MEDIUM', 'HIGH', 'CRITICAL')),
  constraint incidents_status_check check (status in ('OPEN', 'INVESTIGATING', 'RESOLVED', 'CLOSED'))
);
create index incidents_workspace_occurred_idx on incidents (workspace_id, occurred_at desc, id desc);

create table itineraries (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  customer_id text collate "C" not null,
  title text not null,
  starts_on date not null,
  ends_on date not null,
  notes text,
  public_token text collate "C" not null,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint itineraries_customer_fkey foreign key (workspace_id, customer_id)
    references customers (workspace_id, id),
  constraint itineraries_public_token_key unique (public_token),
  constraint itineraries_workspace_id_key unique (workspace_id, id),
  constraint itineraries_dates_check check (ends_on >= starts_on)
);
create index itineraries_workspace_starts_idx on itineraries (workspace_id, starts_on, id);

create table itinerary_items (
  id text collate "C" primary key,
  workspace_id text collate "C" not null,
  itinerary_id text collate "C" not null,
  type text not null,
  title text not null,
  starts_at timestamptz(3) not null,
  ends_at timestamptz(3),
  location text,
  description text,
  operator_notes text,
  booking_id text collate "C" references bookings (id),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint itinerary_items_itinerary_fkey foreign key (workspace_id, itinerary_id)
    references itineraries (workspace_id, id) on delete cascade
);
create index itinerary_items_itinerary_starts_idx on itinerary_items (itinerary_id, starts_at, created_at, id);
`;

const DOWN = `
drop table itinerary_items;
drop table itineraries;
drop table incidents;
drop index availability_vehicle_idx;
drop index availability_driver_idx;
drop index availability_guide_idx;
drop table vendors;
drop table vehicles;
drop table guide_time_off;
drop table guide_profiles;
drop table blackout_dates;
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
