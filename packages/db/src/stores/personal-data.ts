import type { ResellerUnitItemLink } from '@travelops/domain/bookings';
import type { Customer, CustomerDataRecords, ErasurePlan, PersonalDataStore } from '@travelops/domain/crm';
import type { Knex } from 'knex';
import { type BookingRow, toBooking } from './booking-rows.js';
import { type DbTimestamp, toIso, toIsoOrNull } from './columns.js';
import { toTask } from './crm-tasks.js';
import { toLead } from './leads.js';

// Decisions §13: every table that holds a copy of a customer's data, read for an export and
// rewritten by an erasure. A new column that holds personal data belongs here too: the test
// `apps/api/test/crm/personal-data.int.test.ts` searches every text column after an erasure.

/** LIKE patterns matching a term anywhere, its own `%`, `_` and `\` taken literally. */
const containing = (terms: readonly string[]) =>
  terms.map((term) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);

const customerOf = (row: Record<string, unknown>): Customer => ({
  id: row.id as string,
  name: row.name as string,
  email: row.email as string,
  phone: row.phone as string | null,
  companyId: row.company_id as string | null,
  tags: row.tags as string[],
  marketingConsent: row.marketing_consent as boolean,
  totalBookings: row.total_bookings as number,
  lifetimeValue: Number(row.lifetime_value),
  createdAt: toIso(row.created_at as DbTimestamp),
  updatedAt: toIso(row.updated_at as DbTimestamp),
});

export function createPersonalDataStore(db: Knex | Knex.Transaction): PersonalDataStore {
  /** Leads converted into the customer, or with their e-mail (any case): the same person. */
  const leadsOf = (workspaceId: string, customerId: string) =>
    db('leads')
      .where({ workspace_id: workspaceId })
      .andWhere((q) =>
        q
          .where('converted_customer_id', customerId)
          .orWhereRaw(
            'lower(email) = (select lower(email) from customers where workspace_id = ? and id = ?)',
            [workspaceId, customerId],
          ),
      );

  const bookingsOf = async (workspaceId: string, customerId: string, lock = false) => {
    const query = db<BookingRow>('bookings')
      .where({ workspace_id: workspaceId, customer_id: customerId })
      .orderBy([{ column: 'starts_at' }, { column: 'id' }]);
    // The erasure rewrites them: no edit may land between its read and its write.
    return (await (lock ? query.forUpdate() : query)).map(toBooking);
  };

  /** Rewrites `column` of the rows found by `where` with `change` (only rows it changes); answers how many. */
  const rewrite = async <T>(
    table: string,
    key: string,
    column: string,
    where: (q: Knex.QueryBuilder) => Knex.QueryBuilder,
    change: (value: T) => T,
    encode: (value: T) => unknown = (value) => value,
  ): Promise<number> => {
    const rows: Record<string, unknown>[] = await where(db(table).select(key, column)).whereNotNull(column);
    let count = 0;
    for (const row of rows) {
      const before = row[column] as T;
      const after = change(before);
      if (JSON.stringify(after) === JSON.stringify(before)) continue;
      await db(table)
        .where(key, row[key] as string)
        .update({ [column]: encode(after) });
      count++;
    }
    return count;
  };

  return {
    async lockCustomer(workspaceId, id) {
      const row = await db('customers').where({ workspace_id: workspaceId, id }).forUpdate().first();
      return row ? { customer: customerOf(row), erasedAt: toIsoOrNull(row.erased_at) } : null;
    },

    async erasedAt(workspaceId, id) {
      const row = await db('customers').where({ workspace_id: workspaceId, id }).first('erased_at');
      return row ? toIsoOrNull(row.erased_at) : undefined;
    },

    bookingsOf: (workspaceId, customerId) => bookingsOf(workspaceId, customerId),

    async collect(workspaceId, customerId): Promise<CustomerDataRecords> {
      const bookings = await bookingsOf(workspaceId, customerId);
      const ids = bookings.map((booking) => booking.id);
      const [emails, notes, tasks, leads, itineraries, octo, optOuts] = await Promise.all([
        db('guest_emails').where({ workspace_id: workspaceId }).whereIn('booking_id', ids).orderBy('seq'),
        db('customer_notes')
          .where({ workspace_id: workspaceId, customer_id: customerId })
          .orderBy([{ column: 'created_at' }, { column: 'id' }]),
        db('crm_tasks')
          .where({ workspace_id: workspaceId })
          .andWhere((q) => q.where('customer_id', customerId).orWhereIn('booking_id', ids))
          .orderBy([{ column: 'created_at' }, { column: 'id' }]),
        leadsOf(workspaceId, customerId).orderBy([{ column: 'created_at' }, { column: 'id' }]),
        db('itineraries')
          .where({ workspace_id: workspaceId, customer_id: customerId })
          .orderBy([{ column: 'created_at' }, { column: 'id' }])
          .select(
            '*',
            db.raw(`to_char(starts_on, 'YYYY-MM-DD') as starts_day`),
            db.raw(`to_char(ends_on, 'YYYY-MM-DD') as ends_day`),
          ),
        db('octo_bookings')
          .where({ workspace_id: workspaceId })
          .whereIn('booking_id', ids)
          .orderBy('created_at'),
        db('guest_email_opt_outs')
          .where({ workspace_id: workspaceId })
          .whereIn('booking_id', ids)
          .orderBy('created_at'),
      ]);
      return {
        bookings,
        guestEmails: emails.map((row) => ({
          id: row.id,
          bookingId: row.booking_id,
          kind: row.kind,
          recipient: row.recipient,
          status: row.status,
          subject: row.subject,
          textBody: row.text_body,
          createdAt: toIso(row.created_at),
          sentAt: toIsoOrNull(row.sent_at),
        })),
        notes: notes.map((row) => ({
          id: row.id,
          customerId: row.customer_id,
          body: row.body,
          author: { type: row.author_type, id: row.author_id },
          createdAt: toIso(row.created_at),
        })),
        tasks: tasks.map(toTask),
        leads: leads.map(toLead),
        itineraries: itineraries.map((row) => ({
          id: row.id,
          title: row.title,
          startsOn: row.starts_day,
          endsOn: row.ends_day,
          notes: row.notes,
          createdAt: toIso(row.created_at),
        })),
        resellerContacts: octo.map((row) => ({
          bookingId: row.booking_id,
          resellerReference: row.reseller_reference,
          contact: row.contact ?? {},
        })),
        guestEmailOptOuts: optOuts.map((row) => ({
          bookingId: row.booking_id,
          createdAt: toIso(row.created_at),
        })),
      };
    },

    async erase(workspaceId, customerId, plan: ErasurePlan) {
      const bookings = await bookingsOf(workspaceId, customerId, true);
      const ids = bookings.map((booking) => booking.id);
      const inWorkspace = (q: Knex.QueryBuilder) => q.where('workspace_id', workspaceId);
      const ofBookings = (q: Knex.QueryBuilder) => inWorkspace(q).whereIn('booking_id', ids);
      const text = (value: string) => plan.text(value);
      const json = (value: unknown) => plan.json(value);
      const asJson = (value: unknown) => JSON.stringify(value);
      const counts: Record<string, number> = {};
      const add = (table: string, n: number) => {
        if (n > 0) counts[table] = (counts[table] ?? 0) + n;
      };

      // Before the customer's e-mail changes: leads are found by it too.
      add(
        'leads',
        await leadsOf(workspaceId, customerId).update({
          name: plan.customer.name,
          email: null,
          phone: null,
          notes: null,
          updated_at: plan.erasedAt,
        }),
      );

      // The person's own record: neutral values, marked erased (decisions §13).
      add(
        'customers',
        await db('customers').where({ workspace_id: workspaceId, id: customerId }).update({
          name: plan.customer.name,
          email: plan.customer.email,
          phone: null,
          tags: [],
          marketing_consent: false,
          company_id: null,
          erased_at: plan.erasedAt,
          updated_at: plan.erasedAt,
        }),
      );

      // Bookings keep amounts, dates, seats and statuses; lose names, notes and messages.
      for (const booking of bookings) {
        await db('bookings')
          .where({ id: booking.id })
          .update({
            participants: asJson(booking.participants.map((p, index) => plan.participant(p, index))),
            notes: null,
            guest_message: null,
            cancellation_reason:
              booking.cancellationReason === null ? null : text(booking.cancellationReason),
            holder_key: null,
            version: db.raw('version + 1'),
            updated_at: plan.erasedAt,
          });
      }
      add('bookings', bookings.length);

      // Texts about the person alone are replaced whole.
      add(
        'customer_notes',
        await db('customer_notes')
          .where({ workspace_id: workspaceId, customer_id: customerId })
          .update({ body: plan.erasedText }),
      );
      const emails = await ofBookings(db('guest_emails').select('id', 'subject', 'headers', 'status'));
      for (const email of emails) {
        await db('guest_emails')
          .where({ id: email.id })
          .update({
            recipient: plan.customer.email,
            subject: text(email.subject),
            text_body: plan.erasedText,
            html_body: plan.erasedText,
            headers: asJson(json(email.headers)),
            attachments: '[]',
            // Never sent to the neutral address.
            ...(email.status === 'PENDING' && {
              status: 'FAILED',
              next_attempt_at: null,
              locked_until: null,
              last_error: 'The customer was erased before it was sent.',
            }),
          });
      }
      add('guest_emails', emails.length);

      // Records of the business that may mention them keep their words, less the person's values.
      const tasksOf = (q: Knex.QueryBuilder) =>
        inWorkspace(q).andWhere((w) => w.where('customer_id', customerId).orWhereIn('booking_id', ids));
      add('crm_tasks', await rewrite('crm_tasks', 'id', 'title', tasksOf, text));
      add('crm_tasks', await rewrite('crm_tasks', 'id', 'description', tasksOf, text));
      add('booking_history', await rewrite('booking_history', 'id', 'reason', ofBookings, text));
      add('payments', await rewrite('payments', 'id', 'reason', ofBookings, text));
      for (const column of ['title', 'description']) {
        add('incidents', await rewrite('incidents', 'id', column, ofBookings, text));
      }
      const itineraries = (q: Knex.QueryBuilder) => inWorkspace(q).where('customer_id', customerId);
      for (const column of ['title', 'notes']) {
        add('itineraries', await rewrite('itineraries', 'id', column, itineraries, text));
      }
      const items = (q: Knex.QueryBuilder) =>
        inWorkspace(q).andWhere((w) =>
          w
            .whereIn('itinerary_id', db('itineraries').select('id').modify(itineraries))
            .orWhereIn('booking_id', ids),
        );
      for (const column of ['title', 'location', 'description', 'operator_notes']) {
        add('itinerary_items', await rewrite('itinerary_items', 'id', column, items, text));
      }

      // JSON copies: what OCTO resellers sent, the outbox's envelopes, idempotent answers kept 24 h.
      const octo = await ofBookings(db('octo_bookings').select('booking_id', 'unit_items'));
      for (const row of octo) {
        const unitItems = (row.unit_items as ResellerUnitItemLink[]).map((item) => ({
          ...item,
          contact: item.contact && plan.resellerContact,
        }));
        await db('octo_bookings')
          .where({ booking_id: row.booking_id })
          .update({
            contact: asJson(plan.resellerContact),
            unit_items: asJson(json(unitItems)),
            updated_at: plan.erasedAt,
          });
      }
      add('octo_bookings', octo.length);
      const events = (q: Knex.QueryBuilder) => inWorkspace(q).whereIn('aggregate_id', [...ids, customerId]);
      add('outbox_events', await rewrite('outbox_events', 'id', 'payload', events, json, asJson));
      // Guest e-mails not yet planned would go to the neutral address: marked done.
      await events(db('outbox_events'))
        .where('type', 'notification.email_requested')
        .whereNull('mailed_at')
        .update({ mailed_at: plan.erasedAt });
      if (plan.terms.length > 0) {
        const cached = await db('idempotency_keys')
          .select('scope', 'key', 'response_body')
          .whereRaw('response_body::text ilike any (?::text[])', [containing(plan.terms)]);
        for (const row of cached) {
          await db('idempotency_keys')
            .where({ scope: row.scope, key: row.key })
            .update({ response_body: asJson(json(row.response_body)) });
        }
        add('idempotency_keys', cached.length);
      }
      return counts;
    },

    async findPastRetention(now, limit) {
      const rows = await db.raw(
        `select c.workspace_id, c.id
           from customers c
           join workspaces w on w.id = c.workspace_id
          where w.customer_retention_months is not null
            and c.erased_at is null
            and c.created_at < ?::timestamptz - make_interval(months => w.customer_retention_months)
            and not exists (
              select 1 from bookings b
               where b.workspace_id = c.workspace_id and b.customer_id = c.id
                 and b.starts_at >= ?::timestamptz - make_interval(months => w.customer_retention_months))
          order by c.created_at, c.id
          limit ?`,
        [now.toISOString(), now.toISOString(), limit],
      );
      return (rows.rows as { workspace_id: string; id: string }[]).map((row) => ({
        workspaceId: row.workspace_id,
        customerId: row.id,
      }));
    },
  };
}
