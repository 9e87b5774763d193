import type {
  NewPaymentSession,
  PaymentRecord,
  PaymentSession,
  PaymentStore,
} from '@travelops/domain/payments';
import type { Knex } from 'knex';
import { type DbBigint, type DbTimestamp, toDateOrNull, toNumber } from './columns.js';

interface SessionRow {
  id: string;
  token: string;
  workspace_id: string;
  booking_id: string;
  amount: DbBigint;
  currency: string;
  purpose: PaymentSession['purpose'];
  opened_by: PaymentSession['openedBy'];
  status: PaymentSession['status'];
  expires_at: DbTimestamp;
  created_at: DbTimestamp;
  completed_at: DbTimestamp | null;
  provider_reference: string | null;
}

interface PaymentRow {
  id: string;
  workspace_id: string;
  booking_id: string;
  session_id: string | null;
  kind: PaymentRecord['kind'];
  amount: DbBigint;
  currency: string;
  reason: string | null;
  provider_reference: string | null;
  created_at: DbTimestamp;
}

const toSession = (row: SessionRow): PaymentSession => ({
  id: row.id,
  token: row.token,
  workspaceId: row.workspace_id,
  bookingId: row.booking_id,
  amount: toNumber(row.amount),
  currency: row.currency,
  purpose: row.purpose,
  openedBy: row.opened_by,
  status: row.status,
  expiresAt: new Date(row.expires_at),
  createdAt: new Date(row.created_at),
  completedAt: toDateOrNull(row.completed_at),
  providerReference: row.provider_reference,
});

const toPayment = (row: PaymentRow): PaymentRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  bookingId: row.booking_id,
  sessionId: row.session_id,
  kind: row.kind,
  amount: toNumber(row.amount),
  currency: row.currency,
  reason: row.reason,
  providerReference: row.provider_reference,
  createdAt: new Date(row.created_at),
});

/** The row of a new payment page (the bookings store writes a new booking's first one). */
export const toNewSessionRow = (session: NewPaymentSession) => ({
  id: session.id,
  token: session.token,
  workspace_id: session.workspaceId,
  booking_id: session.bookingId,
  amount: session.amount,
  currency: session.currency,
  purpose: session.purpose,
  opened_by: session.openedBy,
  status: session.status,
  expires_at: session.expiresAt,
});

export function createPaymentStore(db: Knex | Knex.Transaction): PaymentStore {
  const sessions = () => db<SessionRow>('payment_sessions');
  const payments = () => db<PaymentRow>('payments');

  return {
    async insertSession(session: NewPaymentSession): Promise<PaymentSession> {
      const [row] = await sessions().insert(toNewSessionRow(session)).returning('*');
      return toSession(row as SessionRow);
    },

    async findSessionByToken(token: string): Promise<PaymentSession | null> {
      const row = await sessions().where({ token }).first();
      return row ? toSession(row) : null;
    },

    async findSessionById(id: string): Promise<PaymentSession | null> {
      const row = await sessions().where({ id }).first();
      return row ? toSession(row) : null;
    },

    async setSessionReference(
      id: string,
      providerReference: string,
      expected: string | null,
    ): Promise<boolean> {
      const updated = await sessions()
        .where({ id, provider_reference: expected })
        .update({ provider_reference: providerReference });
      return updated === 1;
    },

    async lockSession(id: string): Promise<PaymentSession | null> {
      const row = await sessions().where({ id }).forUpdate().first();
      return row ? toSession(row) : null;
    },

    async updateSession(
      id: string,
      patch: Pick<PaymentSession, 'status'> & { completedAt?: Date | null },
    ): Promise<PaymentSession> {
      const changes: Partial<SessionRow> = { status: patch.status };
      if (patch.completedAt !== undefined) changes.completed_at = patch.completedAt;
      const [row] = await sessions().where({ id }).update(changes).returning('*');
      // Callers update a session they have just locked; a missing row is a bug, not an outcome.
      if (!row) throw new Error(`Payment session ${id} vanished before its update.`);
      return toSession(row as SessionRow);
    },

    async expireOpenSessions(bookingId: string): Promise<void> {
      await sessions().where({ booking_id: bookingId, status: 'OPEN' }).update({ status: 'EXPIRED' });
    },

    async extendOpenSessions(bookingId: string, expiresAt: Date): Promise<void> {
      await sessions().where({ booking_id: bookingId, status: 'OPEN' }).update({ expires_at: expiresAt });
    },

    async insertPayment(payment: Omit<PaymentRecord, 'createdAt'>): Promise<PaymentRecord> {
      const [row] = await payments()
        .insert({
          id: payment.id,
          workspace_id: payment.workspaceId,
          booking_id: payment.bookingId,
          session_id: payment.sessionId,
          kind: payment.kind,
          amount: payment.amount,
          currency: payment.currency,
          reason: payment.reason,
          provider_reference: payment.providerReference,
        })
        .returning('*');
      return toPayment(row as PaymentRow);
    },

    async listPayments(workspaceId: string, bookingId: string): Promise<PaymentRecord[]> {
      // seq is the written order (see the migration).
      const rows = await payments()
        .where({ workspace_id: workspaceId, booking_id: bookingId })
        .orderBy('seq');
      return rows.map(toPayment);
    },

    async listPaymentReferences(bookingId: string): Promise<string[]> {
      const rows = await payments()
        .where({ booking_id: bookingId, kind: 'PAYMENT' })
        .whereNotNull('provider_reference')
        .orderBy('seq', 'desc')
        .select('provider_reference');
      return rows.map((row) => row.provider_reference as string);
    },
  };
}
