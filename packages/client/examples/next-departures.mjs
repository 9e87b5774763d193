// The next departures of a workspace, through the typed client (editors show the types).
// Run: API=http://localhost:3000 TOKEN=tops_... WS=ws_... node next-departures.mjs
import { createTravelOpsClient } from '@travelops/client';

const api = createTravelOpsClient({ baseUrl: process.env.API, token: process.env.TOKEN });

const { data, error } = await api.GET('/workspaces/{workspaceId}/availability', {
  params: { path: { workspaceId: process.env.WS }, query: { limit: 3 } },
});
if (error) throw new Error(`${error.error.code}: ${error.error.message}`); // the API's error envelope
for (const departure of data.data) {
  console.log(`${departure.id} ${departure.startsAt} ${departure.seatsRemaining} seats left`);
}
