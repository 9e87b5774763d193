import type {
  ResellerBookingFilter,
  ResellerBookingLink,
  ResellerBookingRecord,
  ResellerBookingStore,
  ResellerContact,
  ResellerUnitItemLink,
} from '@travelops/domain/bookings';
import type { Knex } from 'knex';
import { type BookingRow, toBooking } from './booking-rows.js';
import { jsonColumns } from './columns.js';

interface OctoBookingRow {
  booking_id: string;
  workspace_id: string;
  connection_id: string;
  uuid: string;
  reseller_reference: string | null;
  contact: ResellerContact | null;
  unit_items: ResellerUnitItemLink[];
  created_at: Date;
  updated_at: Date;
}

/** A booking row joined with its OCTO link (the link's columns prefixed `octo_`). */
type JoinedRow = BookingRow & {
  octo_connection_id: string;
  octo_uuid: string;
  octo_reseller_reference: string | null;
  octo_contact: ResellerContact | null;
  octo_unit_items: ResellerUnitItemLink[];
};

const JSON_COLUMNS = ['contact', 'unit_items'];

const toRecord = (row: JoinedRow): ResellerBookingRecord => ({
  booking: toBooking(row),
  link: {
    bookingId: row.id,
    workspaceId: row.workspace_id,
    connectionId: row.octo_connection_id,
    uuid: row.octo_uuid,
    resellerReference: row.octo_reseller_reference,
    contact: row.octo_contact,
    unitItems: row.octo_unit_items,
  },
});

/**
 * The advisory lock's name for one connection's uuid: JSON of the pair is unambiguous. The
 * idempotency keys of the native API use the same scheme under other names (`["scope", "key"]`).
 */
const lockName = (connectionId: string, uuid: string) => JSON.stringify(['octo', connectionId, uuid]);

export function createResellerBookingStore(db: Knex | Knex.Transaction): ResellerBookingStore {
  const links = () => db<OctoBookingRow>('octo_bookings');
  const joined = (workspaceId: string, connectionId: string) =>
    db('bookings as b')
      .join('octo_bookings as o', 'o.booking_id', 'b.id')
      .where({ 'b.workspace_id': workspaceId, 'o.connection_id': connectionId })
      .select<JoinedRow[]>(
        'b.*',
        'o.connection_id as octo_connection_id',
        'o.uuid as octo_uuid',
        'o.reseller_reference as octo_reseller_reference',
        'o.contact as octo_contact',
        'o.unit_items as octo_unit_items',
      );

  return {
    async lockUuid(connectionId: string, uuid: string): Promise<void> {
      // A transaction-level lock outside a transaction would be released at once.
      if (!db.isTransaction) throw new Error('resellerBookings.lockUuid needs a transaction.');
      await db.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [lockName(connectionId, uuid)]);
    },

    async insert(link: ResellerBookingLink): Promise<void> {
      await links().insert({
        booking_id: link.bookingId,
        workspace_id: link.workspaceId,
        connection_id: link.connectionId,
        uuid: link.uuid,
        reseller_reference: link.resellerReference,
        ...jsonColumns({ contact: link.contact, unit_items: link.unitItems }, JSON_COLUMNS),
      });
    },

    async update(workspaceId, bookingId, patch): Promise<void> {
      const changes: Record<string, unknown> = {};
      if (patch.resellerReference !== undefined) changes.reseller_reference = patch.resellerReference;
      if (patch.contact !== undefined) changes.contact = patch.contact;
      if (patch.unitItems !== undefined) changes.unit_items = patch.unitItems;
      await links()
        .where({ workspace_id: workspaceId, booking_id: bookingId })
        .update({ ...jsonColumns(changes, JSON_COLUMNS), updated_at: db.fn.now() });
    },

    async findByUuid(workspaceId, connectionId, uuid): Promise<ResellerBookingRecord | null> {
      const row = await joined(workspaceId, connectionId).where('o.uuid', uuid).first();
      return row ? toRecord(row) : null;
    },

    async list(
      workspaceId,
      connectionId,
      filter: ResellerBookingFilter,
      limit,
    ): Promise<ResellerBookingRecord[]> {
      const query = joined(workspaceId, connectionId);
      if (filter.resellerReference !== undefined)
        query.where('o.reseller_reference', filter.resellerReference);
      if (filter.supplierReference !== undefined) query.where('b.id', filter.supplierReference);
      if (filter.startsFrom) query.where('b.starts_at', '>=', filter.startsFrom);
      if (filter.startsBefore) query.where('b.starts_at', '<', filter.startsBefore);
      const rows = await query.orderBy([{ column: 'b.starts_at' }, { column: 'b.id' }]).limit(limit);
      return rows.map(toRecord);
    },
  };
}
