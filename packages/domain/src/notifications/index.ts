export { getGuestEmail, listGuestEmails, unsubscribeFromReminders } from './guest-emails.js';
export {
  type GuestEmailSettings,
  type PlanGuestEmailsDeps,
  planDepartureReminders,
  planHoldWarnings,
  planRequestedEmails,
} from './plan-guest-emails.js';
export * from './ports.js';
export { requestGuestEmail } from './request-guest-email.js';
export { holdWarningDue, reminderDue, requestForStatusChange } from './rules.js';
export * from './schemas.js';
