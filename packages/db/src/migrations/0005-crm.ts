import type { Knex } from 'knex';
import { runEach } from './run-each.js';

// Conventions of 0001: ids are text collate "C", timestamps timestamptz(3), amounts bigint.
// Every cross-record link is a composite (workspace_id, id) foreign key, so no row can point
// into another workspace. Deleting a company, lead or member clears the links to it
// (SET NULL on that one column) instead of deleting the records that named it.
const UP = `
alter table members add constraint members_workspace_id_key unique (workspace_id, id);
alter table bookings add constraint bookings_workspace_id_key unique (workspace_id, id);

create table companies (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  name text not null,
  domain text,
  phone text,
  address_line1 text,
  address_line2 text,
  city text,
  region text,
  postal_code text,
  country char(2),
  tags text[] not null default '{}',
  notes text,
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint companies_workspace_id_key unique (workspace_id, id)
);
create unique index companies_workspace_domain_key on companies (workspace_id, lower(domain)) where domain is not null;
create index companies_workspace_created_idx on companies (workspace_id, created_at desc, id desc);

alter table customers alter column company_id type text collate "C";
alter table customers add constraint customers_company_fkey foreign key (workspace_id, company_id)
  references companies (workspace_id, id) on delete set null (company_id);
create index customers_company_idx on customers (company_id) where company_id is not null;

create table leads (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  name text not null,
  email text,
  phone text,
  company_id text collate "C",
  source text not null,
  status text not null,
  estimated_value bigint,
  currency char(3),
  notes text,
  owner_id text collate "C",
  converted_customer_id text collate "C",
  converted_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint leads_workspace_id_key unique (workspace_id, id),
  constraint leads_company_fkey foreign key (workspace_id, company_id)
    references companies (workspace_id, id) on delete set null (company_id),
  constraint leads_owner_fkey foreign key (workspace_id, owner_id)
    references members (workspace_id, id) on delete set null (owner_id),
  constraint leads_converted_customer_fkey foreign key (workspace_id, converted_customer_id)
    references customers (workspace_id, id),
  constraint leads_status_check check (status in ('NEW', 'CONTACTED', 'QUALIFIED', 'CONVERTED', 'LOST')),
  constraint leads_value_check check (estimated_value is null or (estimated_value >= 0 and currency is not null)),
  constraint leads_converted_check check ((status = 'CONVERTED') = (converted_customer_id is not null))
);
create index leads_workspace_created_idx on leads (workspace_id, created_at desc, id desc);
create index leads_workspace_status_idx on leads (workspace_id, status, created_at desc, id desc);
create index leads_company_idx on leads (company_id) where company_id is not null;

create table crm_tasks (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  title text not null,
  description text,
  due_at timestamptz(3),
  status text not null,
  priority text not null,
  assignee_id text collate "C",
  customer_id text collate "C",
  lead_id text collate "C",
  booking_id text collate "C",
  company_id text collate "C",
  completed_at timestamptz(3),
  created_at timestamptz(3) not null default now(),
  updated_at timestamptz(3) not null default now(),
  constraint crm_tasks_assignee_fkey foreign key (workspace_id, assignee_id)
    references members (workspace_id, id) on delete set null (assignee_id),
  constraint crm_tasks_customer_fkey foreign key (workspace_id, customer_id) references customers (workspace_id, id),
  constraint crm_tasks_lead_fkey foreign key (workspace_id, lead_id)
    references leads (workspace_id, id) on delete set null (lead_id),
  constraint crm_tasks_booking_fkey foreign key (workspace_id, booking_id) references bookings (workspace_id, id),
  constraint crm_tasks_company_fkey foreign key (workspace_id, company_id)
    references companies (workspace_id, id) on delete set null (company_id),
  constraint crm_tasks_status_check check (status in ('OPEN', 'DONE', 'CANCELLED')),
  constraint crm_tasks_priority_check check (priority in ('LOW', 'NORMAL', 'HIGH'))
);
create index crm_tasks_workspace_created_idx on crm_tasks (workspace_id, created_at desc, id desc);
create index crm_tasks_customer_idx on crm_tasks (customer_id, created_at desc, id desc) where customer_id is not null;
create index crm_tasks_lead_idx on crm_tasks (lead_id) where lead_id is not null;
create index crm_tasks_company_idx on crm_tasks (company_id) where company_id is not null;

create table customer_notes (
  id text collate "C" primary key,
  workspace_id text collate "C" not null references workspaces (id),
  customer_id text collate "C" not null,
  body text not null,
  author_type text not null,
  author_id text,
  created_at timestamptz(3) not null default clock_timestamp(),
  constraint customer_notes_customer_fkey foreign key (workspace_id, customer_id) references customers (workspace_id, id)
);
create index customer_notes_customer_idx on customer_notes (customer_id, created_at desc, id desc);
`;

const DOWN = `
drop table customer_notes;
drop table crm_tasks;
drop table leads;
drop index customers_company_idx;
alter table customers drop constraint customers_company_fkey;
drop table companies;
alter table bookings drop constraint bookings_workspace_id_key;
alter table members drop constraint members_workspace_id_key;
`;

export const up = (knex: Knex): Promise<void> => runEach(knex, UP);

export const down = (knex: Knex): Promise<void> => runEach(knex, DOWN);
