import type { RouteDefinition } from '../route.js';
import { apiKeyRoutes } from './api-keys.js';
import { authRoutes } from './auth.js';
import { availabilityRoutes } from './availability.js';
import { blackoutDateRoutes } from './blackout-dates.js';
import { bookingRoutes } from './bookings.js';
import { companyRoutes } from './companies.js';
import { crmTaskRoutes } from './crm-tasks.js';
import { customerTimelineRoutes } from './customer-timeline.js';
import { customerRoutes } from './customers.js';
import { vehicleRoutes, vendorRoutes } from './fleet.js';
import { guideRoutes } from './guides.js';
import { incidentRoutes } from './incidents.js';
import { itineraryRoutes } from './itineraries.js';
import { leadRoutes } from './leads.js';
import { manifestRoutes } from './manifest.js';
import { memberRoutes } from './members.js';
import { personalDataRoutes } from './personal-data.js';
import { publicRoutes } from './public.js';
import { publicBookingRoutes } from './public-bookings.js';
import { resourceRoutes } from './resources.js';
import { scheduleRoutes } from './schedules.js';
import { tourRoutes } from './tours.js';
import { webhookRoutes } from './webhooks.js';

/** Every operation of the API; the router and /openapi.json are both built from this list. */
export const apiRoutes: readonly RouteDefinition[] = [
  ...tourRoutes,
  ...availabilityRoutes,
  ...manifestRoutes,
  ...scheduleRoutes,
  ...customerRoutes,
  ...customerTimelineRoutes,
  ...personalDataRoutes,
  ...companyRoutes,
  ...leadRoutes,
  ...crmTaskRoutes,
  ...bookingRoutes,
  ...publicRoutes,
  ...publicBookingRoutes,
  ...webhookRoutes,
  ...blackoutDateRoutes,
  ...guideRoutes,
  ...vehicleRoutes,
  ...resourceRoutes,
  ...vendorRoutes,
  ...incidentRoutes,
  ...itineraryRoutes,
  ...authRoutes,
  ...apiKeyRoutes,
  ...memberRoutes,
];
