// @travelops/mail: guest e-mails as messages (the templates that implement the domain's
// GuestEmailComposer) and the SMTP transport that sends them. The jobs decide when to send.
export { createSmtpTransport, type MailTransport, type SendOutcome } from './smtp-transport.js';
export { composeGuestEmail } from './templates/compose.js';
