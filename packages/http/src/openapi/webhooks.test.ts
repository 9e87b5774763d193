import { WEBHOOK_EVENT_TYPES } from '@travelops/domain/webhooks';
import { expect, it } from 'vitest';
import { apiRoutes } from '../routes/index.js';
import { buildOpenApiDocument } from './document.js';

it('documents exactly the subscribable event kinds, in their order, and no outbox-only one', () => {
  const doc = buildOpenApiDocument(apiRoutes, { serverUrl: 'http://localhost' });
  expect(Object.keys(doc.webhooks)).toEqual([...WEBHOOK_EVENT_TYPES]);
  expect(Object.keys(doc.webhooks)).not.toContain('notification.email_requested');
});
