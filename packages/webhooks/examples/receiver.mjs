// A TravelOps webhook receiver on node:http: verify the raw body, answer 2xx, then work.
// Run: TRAVELOPS_WEBHOOK_SECRET=whsec_... node receiver.mjs   (listens on RECEIVER_PORT, default 4000)
import { createServer } from 'node:http';
import { EVENT_ID_HEADER, SIGNATURE_HEADER, verify } from '@travelops/webhooks';

const secret = (process.env.TRAVELOPS_WEBHOOK_SECRET ?? '').split(',').filter(Boolean); // "old,new" in a rotation
if (secret.length === 0) throw new Error('Set TRAVELOPS_WEBHOOK_SECRET to the endpoint secret (whsec_...).');
const port = Number(process.env.RECEIVER_PORT ?? 4000);
const seen = new Set(); // in production: a table with a unique key on the event id

createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/travelops/webhooks') return res.writeHead(404).end();
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const rawBody = Buffer.concat(chunks); // verify the bytes as sent, before parsing JSON
    const check = verify({ rawBody, header: req.headers[SIGNATURE_HEADER], secret });
    if (!check.ok) return res.writeHead(401).end(check.reason);
    const event = JSON.parse(rawBody.toString('utf8'));
    // The event id header is not signed: trust it once it equals the id inside the signed body.
    if (req.headers[EVENT_ID_HEADER] !== event.id) return res.writeHead(400).end();
    res.writeHead(204).end(); // answer first (only 2xx counts as delivered)...
    if (seen.has(event.id)) return; // ...a redelivery: already handled
    seen.add(event.id);
    console.log(`received ${event.type} for ${event.data.id} (${event.id})`); // ...then do the work
  });
}).listen(port, () => console.log(`receiver listening on http://localhost:${port}/travelops/webhooks`));
