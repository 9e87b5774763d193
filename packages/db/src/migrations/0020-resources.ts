import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Shared resources (issue 27, docs/resources.md): what a departure runs on. A departure names
// its resources in `resource_ids`; a SHARED_SEATS resource caps the seats sold over every
// departure that overlaps on it (start to start + duration + turnaround), decided with the
// seat: `travelops_take_seats` locks the departure's shared resources (in id order) and checks
// them in the same call, so a booking with one resource costs no extra statement.
// Existing vehicles become resources of kind VEHICLE, EXCLUSIVE, under their own ids, and
// triggers keep them so: `/vehicles` and `vehicleId` answer exactly as before.
const UP: readonly string[] = [
  `create table resources (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  kind text not null,
  name text not null,
  seats integer,
  sharing text not null,
  turnaround_minutes integer not null default 0,
  active boolean not null default true,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint resources_kind_check check (kind in ('VEHICLE', 'BOAT', 'ROOM', 'EQUIPMENT', 'OTHER')),
  constraint resources_sharing_check check (sharing in ('EXCLUSIVE', 'SHARED_SEATS')),
  constraint resources_seats_check check (seats is null or seats > 0),
  constraint resources_shared_seats_check check (sharing <> 'SHARED_SEATS' or seats is not null),
  constraint resources_turnaround_check check (turnaround_minutes >= 0)
)`,
  `create index resources_workspace_created_idx on resources (workspace_id, created_at desc, id desc)`,
  `alter table availability add column resource_ids text[] collate "C" not null default '{}'`,
  `create index availability_resource_ids_idx on availability using gin (resource_ids)`,
  `alter table tours add column resource_requirements jsonb not null default '[]'`,
  `insert into resources (id, workspace_id, kind, name, seats, sharing, active, created_at, updated_at)
  select id, workspace_id, 'VEHICLE', name, seats, 'EXCLUSIVE', status = 'ACTIVE', created_at, updated_at
    from vehicles`,
  `update availability set resource_ids = array[vehicle_id] where vehicle_id is not null`,
  `-- What happened to a departure that a person must be able to find later: an assignment an ADMIN forced.
create table departure_history (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  availability_id text collate "C" not null references availability (id) on delete cascade,
  kind text not null,
  field text not null,
  issue text not null,
  message text not null,
  actor_type text not null,
  actor_id text,
  created_at timestamptz(3) not null default now()
)`,
  `create index departure_history_availability_idx on departure_history (availability_id, created_at, id)`,
  `-- A vehicle is its own resource: written, rewritten and deleted with it.
create function travelops_vehicle_resource() returns trigger language plpgsql as $body$
begin
  if tg_op = 'DELETE' then
    delete from resources where id = old.id;
    return old;
  end if;
  insert into resources (id, workspace_id, kind, name, seats, sharing, active)
  values (new.id, new.workspace_id, 'VEHICLE', new.name, new.seats, 'EXCLUSIVE', new.status = 'ACTIVE')
  on conflict (id) do update
    set name = excluded.name, seats = excluded.seats, active = excluded.active, updated_at = now();
  return new;
end
$body$`,
  `create trigger vehicles_resource after insert or update or delete on vehicles
  for each row execute function travelops_vehicle_resource()`,
  `-- A departure's vehicle is among its resources; only a write naming either column fires it
-- (never a seat update).
create function travelops_vehicle_in_resources() returns trigger language plpgsql as $body$
begin
  if tg_op = 'UPDATE' and old.vehicle_id is not null and old.vehicle_id is distinct from new.vehicle_id then
    new.resource_ids := array_remove(new.resource_ids, old.vehicle_id);
  end if;
  if new.vehicle_id is not null and not (new.vehicle_id = any(new.resource_ids)) then
    new.resource_ids := new.resource_ids || new.vehicle_id;
  end if;
  return new;
end
$body$`,
  `create trigger availability_vehicle_resource before insert or update of vehicle_id, resource_ids on availability
  for each row execute function travelops_vehicle_in_resources()`,
  `-- Seats left on each SHARED_SEATS resource of a departure, tightest first: its seats minus
-- the seats booked on every departure (not cancelled) overlapping this one on it, this one
-- included; each occupies the resource from its start to start + duration + turnaround.
create function travelops_shared_seats(p_workspace text, p_departure text)
returns table (resource_id text, seats_left integer) language sql stable as $body$
  select r.id, r.seats - (
      select coalesce(sum(o.booked_seats), 0)::int
        from availability o
        join tours ot on ot.workspace_id = o.workspace_id and ot.id = o.tour_id
       where o.workspace_id = a.workspace_id
         and o.resource_ids @> array[r.id]
         and o.status <> 'CANCELLED'
         and o.starts_at < a.starts_at + make_interval(mins => t.duration_minutes + r.turnaround_minutes)
         and o.starts_at + make_interval(mins => ot.duration_minutes + r.turnaround_minutes) > a.starts_at)
    from availability a
    join tours t on t.workspace_id = a.workspace_id and t.id = a.tour_id
    join resources r on r.workspace_id = a.workspace_id and r.id = any(a.resource_ids)
   where a.workspace_id = p_workspace and a.id = p_departure and r.sharing = 'SHARED_SEATS'
   order by 2, 1
$body$`,
  `-- Locks the departure's SHARED_SEATS resources (in id order: never a cycle), then answers the
-- first one over its seats, or null. Each statement of a plpgsql function reads afresh, so the
-- check sees every booking committed while the lock was waited for.
create function travelops_shared_seats_full(p_workspace text, p_departure text)
returns text language plpgsql as $body$
declare
  v_full text;
begin
  perform 1
     from resources r
    where r.workspace_id = p_workspace and r.sharing = 'SHARED_SEATS'
      and r.id = any((select a.resource_ids from availability a
                       where a.workspace_id = p_workspace and a.id = p_departure)::text[])
    order by r.id
      for no key update;
  select s.resource_id into v_full
    from travelops_shared_seats(p_workspace, p_departure) s
   where s.seats_left < 0
   limit 1;
  return v_full;
end
$body$`,
  `create or replace function travelops_take_seats(p_workspace text, p_departure text, p_count integer, p_version integer)
returns void language plpgsql as $body$
declare
  v_resources text[];
begin
  update availability
     set booked_seats = booked_seats + p_count, updated_at = now()
   where workspace_id = p_workspace and id = p_departure and version = p_version
     and booked_seats + p_count <= capacity
  returning resource_ids into v_resources;
  if not found then
    raise exception 'No % seats left on % at version %.', p_count, p_departure, p_version
      using errcode = 'TS001';
  end if;
  if cardinality(v_resources) > 0 and travelops_shared_seats_full(p_workspace, p_departure) is not null then
    raise exception 'A shared resource of % has no % seats left.', p_departure, p_count
      using errcode = 'TS001';
  end if;
end
$body$`,
];

const PREVIOUS_TAKE_SEATS = `
create or replace function travelops_take_seats(p_workspace text, p_departure text, p_count integer, p_version integer)
returns void language plpgsql as $body$
begin
  update availability
     set booked_seats = booked_seats + p_count, updated_at = now()
   where workspace_id = p_workspace and id = p_departure and version = p_version
     and booked_seats + p_count <= capacity;
  if not found then
    raise exception 'No % seats left on % at version %.', p_count, p_departure, p_version
      using errcode = 'TS001';
  end if;
end
$body$
`;

// One command per query: PGlite runs each raw query as a prepared statement (run-each.ts).
export const up = async (knex: Knex): Promise<void> => {
  for (const statement of UP) await knex.raw(statement);
};

export const down = async (knex: Knex): Promise<void> => {
  await knex.raw(PREVIOUS_TAKE_SEATS);
  await runEach(
    knex,
    `drop function travelops_shared_seats_full(text, text);
    drop function travelops_shared_seats(text, text);
    drop trigger availability_vehicle_resource on availability;
    drop function travelops_vehicle_in_resources();
    drop trigger vehicles_resource on vehicles;
    drop function travelops_vehicle_resource();
    drop table departure_history;
    alter table tours drop column resource_requirements;
    drop index availability_resource_ids_idx;
    alter table availability drop column resource_ids;
    drop table resources;`,
  );
};
