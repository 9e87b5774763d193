import { expect, it } from 'vitest';
import { buildWidget, GZIP_BUDGET_BYTES } from '../scripts/build.mjs';

it(`the bundle is one classic script within ${GZIP_BUDGET_BYTES / 1000} kB gzip`, async () => {
  const { text, bytes, gzipBytes } = await buildWidget({ write: false });
  console.info(`widget.js: ${bytes} bytes, ${gzipBytes} bytes gzip`);
  expect(gzipBytes).toBeLessThanOrEqual(GZIP_BUDGET_BYTES);
  // An IIFE for <script src>: no module syntax, nothing left for the page to resolve.
  expect(text).not.toMatch(/^\s*(import|export)\s/m);
  expect(text).toContain('travelops-booking');
  // It never sends a credential: the public operations need none.
  expect(text).toContain('"omit"');
}, 30_000);
