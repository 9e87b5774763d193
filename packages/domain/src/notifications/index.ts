// The notifications context's face: guest e-mails: what is due, planned and sent.
// Other contexts, adapters and apps use these names and nothing else of this folder.

// First the files whose imports never lead back into this context: ESM evaluates them before
// an import cycle through another context can ask for their values.
export { getGuestEmail, listGuestEmails, unsubscribeFromReminders } from './guest-emails.js';
export type {
  ComposedEmail,
  GuestEmailAttemptResult,
  GuestEmailCandidate,
  GuestEmailClaim,
  GuestEmailComposer,
  GuestEmailContext,
  GuestEmailStore,
  NotificationStores,
} from './ports.js';
export { requestGuestEmail } from './request-guest-email.js';

// Then the files that reach this context again through another one.
export {
  type GuestEmailSettings,
  planDepartureReminders,
  planHoldWarnings,
  planRequestedEmails,
} from './plan-guest-emails.js';
export { requestForStatusChange } from './rules.js';
export {
  type EmailAttachment,
  GUEST_EMAIL_KINDS,
  type GuestEmail,
  type GuestEmailRequest,
  GuestEmailRequestSchema,
  type NewGuestEmail,
} from './schemas.js';
