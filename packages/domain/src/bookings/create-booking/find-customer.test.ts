import { describe, expect, it } from 'vitest';
import type { NewCustomer } from '../../crm/index.js';
import { recordingStores } from '../test-fixtures.js';
import { findOrCreateCustomer } from './find-customer.js';

describe('findOrCreateCustomer', () => {
  it('makes the customer from the request, without tags or consent: new when its id is the one proposed', async () => {
    const { stores, calls } = recordingStores({
      'customers.findOrCreateByEmail': (_ws: string, customer: NewCustomer) => customer,
    });
    const found = await findOrCreateCustomer(stores, 'ws_1', { name: 'Ada', email: 'ada@example.com' });
    expect(found.isNew).toBe(true);
    expect(calls).toEqual([
      {
        call: 'customers.findOrCreateByEmail',
        args: [
          'ws_1',
          {
            id: found.id,
            name: 'Ada',
            email: 'ada@example.com',
            phone: null,
            tags: [],
            marketingConsent: false,
          },
        ],
      },
    ]);
  });

  it('an existing customer with that e-mail is not new (its row may be locked by others)', async () => {
    const { stores } = recordingStores({ 'customers.findOrCreateByEmail': () => ({ id: 'cus_old' }) });
    expect(
      await findOrCreateCustomer(stores, 'ws_1', {
        name: 'Ada',
        email: 'ada@example.com',
        phone: '+4930123',
      }),
    ).toEqual({ id: 'cus_old', isNew: false });
  });
});
