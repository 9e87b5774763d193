import type { RouteDefinition } from '../route.js';
import { apiKeyRoutes } from './api-keys.js';
import { authRoutes } from './auth.js';
import { availabilityRoutes } from './availability.js';
import { bookingRoutes } from './bookings.js';
import { customerRoutes } from './customers.js';
import { memberRoutes } from './members.js';
import { publicRoutes } from './public.js';
import { publicBookingRoutes } from './public-bookings.js';
import { tourRoutes } from './tours.js';
import { webhookRoutes } from './webhooks.js';

/** Every operation of the API; the router and /openapi.json are both built from this list. */
export const apiRoutes: readonly RouteDefinition[] = [
  ...tourRoutes,
  ...availabilityRoutes,
  ...customerRoutes,
  ...bookingRoutes,
  ...publicRoutes,
  ...publicBookingRoutes,
  ...webhookRoutes,
  ...authRoutes,
  ...apiKeyRoutes,
  ...memberRoutes,
];
