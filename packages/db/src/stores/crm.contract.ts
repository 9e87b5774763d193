import type { NewCompany, NewCrmTask, NewLead } from '@travelops/domain/crm';
import { newId } from '@travelops/domain/shared';
import type { Knex } from 'knex';
import { describe, expect, it } from 'vitest';
import { createStores } from '../unit-of-work.js';
import {
  allPages,
  type ContractDatabase,
  errorOf,
  ISO_MS,
  newBooking,
  newBookingScene,
  newCustomer,
  newWorkspace,
  unwrap,
} from './contract-fixtures.js';

const companyFields = (overrides: Partial<NewCompany> = {}): NewCompany => ({
  id: newId('company'),
  name: 'Acme Travel',
  domain: null,
  phone: null,
  addressLine1: null,
  addressLine2: null,
  city: null,
  region: null,
  postalCode: null,
  country: null,
  tags: [],
  notes: null,
  ...overrides,
});

const leadFields = (overrides: Partial<NewLead> = {}): NewLead => ({
  id: newId('lead'),
  name: 'Prospect',
  email: null,
  phone: null,
  companyId: null,
  source: 'WEBSITE',
  status: 'NEW',
  estimatedValue: null,
  currency: null,
  notes: null,
  ownerId: null,
  convertedCustomerId: null,
  convertedAt: null,
  ...overrides,
});

const taskFields = (overrides: Partial<NewCrmTask> = {}): NewCrmTask => ({
  id: newId('crmTask'),
  title: 'Call back',
  description: null,
  dueAt: null,
  status: 'OPEN',
  priority: 'NORMAL',
  assigneeId: null,
  customerId: null,
  leadId: null,
  bookingId: null,
  companyId: null,
  completedAt: null,
  ...overrides,
});

/** Companies, leads, CRM tasks, notes and the timeline; runs inside `describeStoreContract`. */
export function describeCrmStoreContract(database: () => ContractDatabase): void {
  const knex = (): Knex => database().knex;
  const stores = () => createStores(knex());

  describe('companies', () => {
    it('round-trips, pages newest first, and a taken domain (any case) is a CONFLICT on domain', async () => {
      const workspaceId = await newWorkspace(knex());
      const input = companyFields({ domain: 'acme.example', tags: ['b2b'], country: 'DE', city: 'Berlin' });
      const company = unwrap(await stores().companies.insert(workspaceId, input));
      expect(company).toMatchObject(input);
      expect(company.createdAt).toMatch(ISO_MS);
      expect(await stores().companies.findById(workspaceId, company.id)).toEqual(company);
      const twin = await stores().companies.insert(workspaceId, companyFields({ domain: 'ACME.example' }));
      expect(errorOf(twin)).toMatchObject({
        code: 'CONFLICT',
        details: [{ field: 'domain', issue: 'already_exists' }],
      });
      // Another workspace may have the same domain; null domains never collide.
      unwrap(
        await stores().companies.insert(
          await newWorkspace(knex()),
          companyFields({ domain: 'acme.example' }),
        ),
      );
      for (let i = 0; i < 4; i++)
        unwrap(await stores().companies.insert(workspaceId, companyFields({ name: `C${i}` })));
      const pages = await allPages((after) => stores().companies.list(workspaceId, {}, { limit: 2, after }));
      expect(pages.flat()).toHaveLength(5);
      expect(
        (await stores().companies.list(workspaceId, { q: 'acme' }, { limit: 10, after: null })).items,
      ).toEqual([company]);
    });

    it('update maps a taken domain; delete keeps customers, leads and tasks with companyId null', async () => {
      const workspaceId = await newWorkspace(knex());
      const a = unwrap(await stores().companies.insert(workspaceId, companyFields({ domain: 'a.example' })));
      const b = unwrap(await stores().companies.insert(workspaceId, companyFields({ domain: 'b.example' })));
      expect(
        errorOf(await stores().companies.update(workspaceId, b.id, { domain: 'a.example' })),
      ).toMatchObject({
        code: 'CONFLICT',
      });
      expect(unwrap(await stores().companies.update(workspaceId, b.id, { city: 'Rome' }))?.city).toBe('Rome');
      expect(
        unwrap(await stores().companies.update(await newWorkspace(knex()), b.id, { city: 'X' })),
      ).toBeNull();
      const customerId = await newCustomer(knex(), workspaceId);
      await stores().customers.update(workspaceId, customerId, { companyId: a.id });
      const lead = await stores().leads.insert(workspaceId, leadFields({ companyId: a.id }));
      const task = await stores().crmTasks.insert(workspaceId, taskFields({ companyId: a.id }));
      expect(await stores().companies.delete(workspaceId, a.id)).toBe(true);
      expect(await stores().companies.delete(workspaceId, a.id)).toBe(false);
      expect((await stores().customers.findById(workspaceId, customerId))?.companyId).toBeNull();
      expect((await stores().leads.findById(workspaceId, lead.id))?.companyId).toBeNull();
      expect((await stores().crmTasks.findById(workspaceId, task.id))?.companyId).toBeNull();
    });

    it("the database refuses a customer pointing at another workspace's company", async () => {
      const workspaceId = await newWorkspace(knex());
      const foreign = unwrap(await stores().companies.insert(await newWorkspace(knex()), companyFields()));
      const customerId = await newCustomer(knex(), workspaceId);
      await expect(
        stores().customers.update(workspaceId, customerId, { companyId: foreign.id }),
      ).rejects.toThrow();
    });
  });

  describe('leads', () => {
    it('round-trips bigint values, filters by status and q, pages newest first, deletes', async () => {
      const workspaceId = await newWorkspace(knex());
      const big = await stores().leads.insert(
        workspaceId,
        leadFields({
          name: 'Big Deal',
          email: 'big@deal.example',
          estimatedValue: 1_000_000_000_000,
          currency: 'EUR',
        }),
      );
      expect(big.estimatedValue).toBe(1_000_000_000_000);
      expect(await stores().leads.findById(workspaceId, big.id)).toEqual(big);
      for (let i = 0; i < 3; i++) await stores().leads.insert(workspaceId, leadFields({ status: 'LOST' }));
      const lost = await allPages((after) =>
        stores().leads.list(workspaceId, { status: 'LOST' }, { limit: 2, after }),
      );
      expect(lost.flat()).toHaveLength(3);
      expect(
        (await stores().leads.list(workspaceId, { q: 'DEAL.ex' }, { limit: 5, after: null })).items,
      ).toEqual([big]);
      const updated = await stores().leads.update(workspaceId, big.id, {
        status: 'CONTACTED',
        notes: 'called',
      });
      expect(updated).toMatchObject({ status: 'CONTACTED', notes: 'called' });
      expect(await stores().leads.update(await newWorkspace(knex()), big.id, { notes: 'x' })).toBeNull();
      expect(await stores().leads.delete(workspaceId, big.id)).toBe(true);
      expect(await stores().leads.findById(workspaceId, big.id)).toBeNull();
    });
  });

  describe('CRM tasks', () => {
    it('filters by status, customer and due date (inclusive UTC days)', async () => {
      const workspaceId = await newWorkspace(knex());
      const customerId = await newCustomer(knex(), workspaceId);
      const at = (dueAt: string | null, extra: Partial<NewCrmTask> = {}) =>
        stores().crmTasks.insert(workspaceId, taskFields({ dueAt, ...extra }));
      const first = await at('2030-03-01T00:00:00.000Z', { customerId });
      const last = await at('2030-03-02T23:59:59.999Z', {
        status: 'DONE',
        completedAt: '2030-03-02T00:00:00.000Z',
      });
      await at('2030-03-03T00:00:00.000Z');
      await at(null);
      const ids = async (filter: Parameters<ReturnType<typeof stores>['crmTasks']['list']>[1]) =>
        (await stores().crmTasks.list(workspaceId, filter, { limit: 10, after: null })).items.map(
          (t) => t.id,
        );
      // Which of the two comes first is the list order's business (created in the same millisecond
      // or not): the filter's is which tasks are in.
      expect((await ids({ from: '2030-03-01', to: '2030-03-02' })).sort()).toEqual(
        [last.id, first.id].sort(),
      );
      expect(await ids({ status: 'DONE' })).toEqual([last.id]);
      expect(await ids({ customerId })).toEqual([first.id]);
      expect(await ids({})).toHaveLength(4);
      expect(await stores().crmTasks.update(workspaceId, first.id, { status: 'CANCELLED' })).toMatchObject({
        status: 'CANCELLED',
      });
      expect(await stores().crmTasks.delete(workspaceId, first.id)).toBe(true);
      expect(await stores().crmTasks.delete(workspaceId, first.id)).toBe(false);
    });
  });

  describe('customer timeline', () => {
    it('merges bookings, status changes, payments, notes and tasks newest first, across pages', async () => {
      const scene = await newBookingScene(knex());
      const { workspaceId, customerId } = scene;
      const booking = await newBooking(knex(), scene);
      await stores().bookingHistory.append({
        id: newId('history'),
        workspaceId,
        bookingId: booking.id,
        fromStatus: null,
        toStatus: 'PENDING',
        reason: null,
        actor: { type: 'system', id: null },
      });
      await stores().bookingHistory.append({
        id: newId('history'),
        workspaceId,
        bookingId: booking.id,
        fromStatus: 'PENDING',
        toStatus: 'CONFIRMED',
        reason: 'paid',
        actor: { type: 'system', id: null },
      });
      await stores().payments.insertPayment({
        id: newId('payment'),
        workspaceId,
        bookingId: booking.id,
        sessionId: null,
        kind: 'PAYMENT',
        amount: 9000,
        currency: 'EUR',
        reason: null,
        providerReference: null,
      });
      await stores().customerNotes.insert(workspaceId, {
        id: newId('customerNote'),
        customerId,
        body: 'Prefers mornings',
        author: { type: 'api_token', id: 'tok_x' },
      });
      await stores().crmTasks.insert(
        workspaceId,
        taskFields({ customerId, dueAt: '2030-01-01T10:00:00.000Z' }),
      );
      // Another customer's records never appear.
      const other = await newCustomer(knex(), workspaceId);
      await stores().crmTasks.insert(workspaceId, taskFields({ customerId: other }));

      const pages = await allPages((after) =>
        stores().customerTimeline.list(workspaceId, customerId, { limit: 2, after }),
      );
      expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
      const entries = pages.flat();
      expect(entries.map((e) => e.type).sort()).toEqual(
        ['booking.created', 'booking.status_changed', 'crm_task', 'note', 'payment.succeeded'].sort(),
      );
      const order = entries.map((e) => [e.occurredAt, e.id]);
      expect(order).toEqual([...order].sort().reverse());
      const created = entries.find((e) => e.type === 'booking.created');
      expect(created).toMatchObject({
        id: booking.id,
        bookingId: booking.id,
        data: { totalAmount: 9000, currency: 'EUR', participantCount: 2, startsAt: scene.startsAt },
      });
      expect(entries.find((e) => e.type === 'booking.status_changed')?.data).toMatchObject({
        fromStatus: 'PENDING',
        toStatus: 'CONFIRMED',
        reason: 'paid',
      });
      expect(entries.find((e) => e.type === 'crm_task')?.data).toMatchObject({
        dueAt: '2030-01-01T10:00:00.000Z',
      });
      expect(entries.find((e) => e.type === 'note')?.data).toMatchObject({ body: 'Prefers mornings' });
    });
  });
}
