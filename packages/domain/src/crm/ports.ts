import type { MemberStore } from '../access/index.js';
import type { BookingRecord, BookingStore, Participant, ResellerContact } from '../bookings/index.js';
import type { Clock, Page, PageRequest, UnitOfWork } from '../shared/ports.js';
import type { Result } from '../shared/result.js';
import type { Customer } from './customer-schemas.js';
import type {
  ExportedGuestEmail,
  ExportedItinerary,
  ExportedResellerContact,
} from './personal-data-schemas.js';
import type { Company, CrmTask, CustomerNote, Lead, TimelineEntryType } from './schemas.js';

export type NewCustomer = Pick<Customer, 'id' | 'name' | 'email' | 'phone' | 'tags' | 'marketingConsent'>;

export type CustomerPatch = Partial<
  Pick<Customer, 'name' | 'phone' | 'tags' | 'marketingConsent' | 'companyId'>
>;

export interface CustomerStore {
  /** Fails with CONFLICT (field `email`) when the e-mail is taken in the workspace. */
  insert(workspaceId: string, customer: NewCustomer): Promise<Result<Customer>>;
  findById(workspaceId: string, id: string): Promise<Customer | null>;
  /** The workspace's customers among `ids` (in no order); unknown ids are left out. */
  findByIds(workspaceId: string, ids: readonly string[]): Promise<Customer[]>;
  list(workspaceId: string, filter: { q?: string }, page: PageRequest): Promise<Page<Customer>>;
  /** The workspace's customer with this e-mail (case-insensitive), created from `customer` if none; race-safe. */
  findOrCreateByEmail(workspaceId: string, customer: NewCustomer): Promise<Customer>;
  /** Applies the patch and sets `updatedAt`; null when no such customer. */
  update(workspaceId: string, id: string, patch: CustomerPatch): Promise<Customer | null>;
  /**
   * Recomputes `totalBookings` (bookings not CANCELLED) and `lifetimeValue` (paid minus
   * refunded) from the bookings, so they stay true whatever changed.
   */
  refreshStats(workspaceId: string, customerId: string): Promise<void>;
  /**
   * The same recomputation, with the transaction's COMMIT (after the statements queued before
   * it, such as a booking's seats: the departure's row, then the customer's, the order every
   * seat write takes, so no lock cycle).
   */
  refreshStatsAtCommit(workspaceId: string, customerId: string): Promise<void>;
}

export type NewCompany = Omit<Company, 'createdAt' | 'updatedAt'>;
export type CompanyPatch = Partial<Omit<Company, 'id' | 'createdAt' | 'updatedAt'>>;

export interface CompanyStore {
  /** Fails with CONFLICT (field `domain`) when another company of the workspace has the domain. */
  insert(workspaceId: string, company: NewCompany): Promise<Result<Company>>;
  findById(workspaceId: string, id: string): Promise<Company | null>;
  /** Newest first; `q` is a case-insensitive substring of the name or domain. */
  list(workspaceId: string, filter: { q?: string }, page: PageRequest): Promise<Page<Company>>;
  /** Null when no such company; CONFLICT as for insert. */
  update(workspaceId: string, id: string, patch: CompanyPatch): Promise<Result<Company | null>>;
  /** Customers, leads and tasks that named it keep existing, with `companyId` null. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewLead = Omit<Lead, 'createdAt' | 'updatedAt'>;
export type LeadPatch = Partial<Omit<Lead, 'id' | 'createdAt' | 'updatedAt'>>;

export interface LeadStore {
  insert(workspaceId: string, lead: NewLead): Promise<Lead>;
  findById(workspaceId: string, id: string): Promise<Lead | null>;
  /** Locks the lead row (FOR UPDATE) for the rest of the transaction. */
  lock(workspaceId: string, id: string): Promise<Lead | null>;
  /** Newest first; `q` is a case-insensitive substring of the name, e-mail or phone. */
  list(
    workspaceId: string,
    filter: { status?: Lead['status']; q?: string },
    page: PageRequest,
  ): Promise<Page<Lead>>;
  update(workspaceId: string, id: string, patch: LeadPatch): Promise<Lead | null>;
  /** Tasks linked to it keep existing, with `leadId` null. */
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export type NewCrmTask = Omit<CrmTask, 'createdAt' | 'updatedAt'>;
export type CrmTaskPatch = Partial<Omit<CrmTask, 'id' | 'createdAt' | 'updatedAt'>>;

export interface CrmTaskFilter {
  status?: CrmTask['status'];
  customerId?: string;
  leadId?: string;
  /** Inclusive UTC calendar dates of `dueAt`. */
  from?: string;
  to?: string;
}

export interface CrmTaskStore {
  insert(workspaceId: string, task: NewCrmTask): Promise<CrmTask>;
  findById(workspaceId: string, id: string): Promise<CrmTask | null>;
  /** Newest first. */
  list(workspaceId: string, filter: CrmTaskFilter, page: PageRequest): Promise<Page<CrmTask>>;
  update(workspaceId: string, id: string, patch: CrmTaskPatch): Promise<CrmTask | null>;
  delete(workspaceId: string, id: string): Promise<boolean>;
}

export interface CustomerNoteStore {
  insert(workspaceId: string, note: Omit<CustomerNote, 'createdAt'>): Promise<CustomerNote>;
}

/** One event of a customer's history as the store reads it; the domain writes its summary. */
export interface TimelineRecord {
  id: string;
  type: TimelineEntryType;
  occurredAt: string;
  bookingId: string | null;
  data: Record<string, unknown>;
}

export interface CustomerTimelineStore {
  /** Every source merged, newest first: `(occurredAt, id)` descending, strictly after the cursor. */
  list(workspaceId: string, customerId: string, page: PageRequest): Promise<Page<TimelineRecord>>;
}

/** Everything held about a customer beside their own row (decisions §13). */
export interface CustomerDataRecords {
  bookings: BookingRecord[];
  guestEmails: ExportedGuestEmail[];
  notes: CustomerNote[];
  tasks: CrmTask[];
  leads: Lead[];
  itineraries: ExportedItinerary[];
  resellerContacts: ExportedResellerContact[];
  guestEmailOptOuts: { bookingId: string; createdAt: string }[];
}

/** What an erasure writes: decided by the domain (personal-data-rules.ts), applied by the store. */
export interface ErasurePlan {
  erasedAt: string;
  customer: { name: string; email: string };
  /** The values searched for (case-insensitive) where copies may hold them; see erasureTerms. */
  terms: readonly string[];
  participant(participant: Participant, index: number): Participant;
  /** Scrubs the erased values out of free text that stays (reasons, subjects, task titles). */
  text(value: string): string;
  /** The same inside JSON copies (outbox payloads, idempotent answers, OCTO unit items). */
  json(value: unknown): unknown;
  /** Written in place of a text that is the person's own (a note about them, an e-mail body). */
  erasedText: string;
  resellerContact: ResellerContact;
}

export interface PersonalDataStore {
  /** The customer locked (FOR UPDATE) with when it was erased (null if never); null when none. */
  lockCustomer(
    workspaceId: string,
    id: string,
  ): Promise<{ customer: Customer; erasedAt: string | null } | null>;
  /** When the customer was erased, without a lock; undefined when no such customer. */
  erasedAt(workspaceId: string, id: string): Promise<string | null | undefined>;
  /** Everything held about the customer, oldest first. */
  collect(workspaceId: string, customerId: string): Promise<CustomerDataRecords>;
  /** The customer's bookings, oldest departure first. */
  bookingsOf(workspaceId: string, customerId: string): Promise<BookingRecord[]>;
  /**
   * Rewrites every copy of the customer's data by the plan, in the caller's transaction, and
   * marks the customer erased; answers the rows rewritten by table.
   */
  erase(workspaceId: string, customerId: string, plan: ErasurePlan): Promise<Record<string, number>>;
  /**
   * Customers not yet erased of workspaces with `customerRetentionMonths`, whose last departure
   * (or, with no booking, their creation) is older than that many months before `now`; no
   * customer with a live booking still to start. At most `limit`.
   */
  findPastRetention(now: Date, limit: number): Promise<{ workspaceId: string; customerId: string }[]>;
}

/** Every store the CRM use cases touch; each use case names the ones it needs. */
export interface CrmStores {
  customers: CustomerStore;
  companies: CompanyStore;
  leads: LeadStore;
  crmTasks: CrmTaskStore;
  customerNotes: CustomerNoteStore;
  customerTimeline: CustomerTimelineStore;
  personalData: PersonalDataStore;
  bookings: BookingStore;
  members: MemberStore;
}

/** What a CRM use case takes: a unit of work over the stores `K` it names, and the clock. */
export interface CrmDeps<K extends keyof CrmStores = keyof CrmStores> {
  uow: UnitOfWork<Pick<CrmStores, K>>;
  clock: Clock;
}
