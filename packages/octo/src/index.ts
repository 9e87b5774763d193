// @travelops/octo: the OCTO supplier API, a wire protocol over the domain's bookings and catalog
// faces. Its mapping, use cases and Express router live here; apps/api mounts the router at /octo.

export type { OctoRouteDefinition } from './http/route.js';
export { createOctoRouter } from './http/router.js';
export { octoRoutes } from './http/routes.js';
