/**
 * The mail module's public surface: what other modules use of it
 * (docs/adr/0003-server-layout-and-boundaries.md).
 */
export { emailChangedMail, passwordResetMail, resetLinkPlaceholder } from './account-messages.ts';
export { queueAlertMails } from './alert-mails.ts';
export type { ClaimedMail } from './outbox.ts';
export { queueMail } from './outbox.ts';
export { createMailSender } from './sender.ts';
export type { OutgoingMail } from './transport.ts';
