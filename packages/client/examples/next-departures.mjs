// The next departures of a workspace from now on, through the typed client (editors show the types).
// Run: API=http://localhost:3000 TOKEN=tops_... WS=ws_... node next-departures.mjs
import { createTravelOpsClient } from '@travelops/client';

const api = createTravelOpsClient({ baseUrl: process.env.API, token: process.env.TOKEN });

const from = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10); // tomorrow (UTC): today's may have left
const { data, error } = await api.GET('/workspaces/{workspaceId}/availability', {
  params: { path: { workspaceId: process.env.WS }, query: { from, limit: 3 } },
});
if (error) throw new Error(`${error.error.code}: ${error.error.message}`); // the API's error envelope
for (const departure of data.data) {
  console.log(`${departure.id} ${departure.startsAt} ${departure.seatsRemaining} seats left`);
}
