import type { Knex } from 'knex';

// timestamptz(3): stored values keep exactly the milliseconds a client sees in the ISO string,
// so a keyset position built from that string never skips a row in the same millisecond.
// Ids are opaque ASCII: collation "C" orders them bytewise, the same on every server and in JS,
// so keyset pagination's (timestamp, id) order does not depend on the server's locale.
const UP = `
create table workspaces (
  id text collate "C" primary key,
  slug text not null,
  name text not null,
  created_at timestamptz(3) not null default now(),
  constraint workspaces_slug_key unique (slug)
);

create table members (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  email text not null,
  role text not null,
  password_hash text not null,
  created_at timestamptz(3) not null default now()
);
create unique index members_workspace_email_key on members (workspace_id, lower(email));

create table api_tokens (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  role text not null,
  name text not null,
  prefix text not null,
  secret_hash text not null,
  expires_at timestamptz(3),
  revoked_at timestamptz(3),
  last_used_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  constraint api_tokens_secret_hash_key unique (secret_hash)
);
create index api_tokens_workspace_idx on api_tokens (workspace_id);

create table tours (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  slug text not null,
  name text not null,
  description text not null default '',
  duration_minutes integer not null,
  base_price bigint not null,
  currency char(3) not null,
  capacity integer not null,
  meeting_point text,
  is_public boolean not null default false,
  deposit_percent integer not null default 20,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint tours_workspace_slug_key unique (workspace_id, slug),
  -- Target of availability's composite foreign key: a departure cannot point at another workspace's tour.
  constraint tours_workspace_id_key unique (workspace_id, id)
);
create index tours_workspace_created_idx on tours (workspace_id, created_at desc, id desc);

create table availability (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  tour_id text collate "C" not null,
  starts_at timestamptz(3) not null,
  capacity integer not null,
  booked_seats integer not null default 0,
  status text not null,
  guide_id text,
  driver_id text,
  vehicle_id text,
  booking_cutoff_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint availability_tour_fkey foreign key (workspace_id, tour_id) references tours (workspace_id, id),
  -- The no-overbooking invariant: whatever the code does, seats never go negative or past capacity.
  constraint availability_seats_check check (booked_seats >= 0 and booked_seats <= capacity)
);
create index availability_workspace_starts_idx on availability (workspace_id, starts_at, id);
create index availability_tour_starts_idx on availability (tour_id, starts_at);

create table customers (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  name text not null,
  email text not null,
  phone text,
  company_id text,
  tags text[] not null default '{}',
  marketing_consent boolean not null default false,
  total_bookings integer not null default 0,
  lifetime_value bigint not null default 0,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now()
);
create unique index customers_workspace_email_key on customers (workspace_id, lower(email));
create index customers_workspace_created_idx on customers (workspace_id, created_at desc, id desc);

create table app_secrets (
  name text primary key,
  value text not null,
  created_at timestamptz(3) not null default now()
);
`;

const DOWN = `
drop table app_secrets;
drop table customers;
drop table availability;
drop table tours;
drop table api_tokens;
drop table members;
drop table workspaces;
`;

// PGlite runs each raw query as a prepared statement, which holds one command only.
async function runEach(knex: Knex, script: string): Promise<void> {
  for (const statement of script.split(/;\s*$/m)) {
    if (statement.trim()) await knex.raw(statement);
  }
}

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
