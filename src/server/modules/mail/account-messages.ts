/**
 * What the account e-mails say (docs/accounts.md), in English and Italian: plain text, like the alert
 * mails, in the recipient's language (users.language).
 */
import type { MailLanguage } from '#shared/notifications/index.ts';

export interface MailText {
  subject: string;
  text: string;
}

/** UTC, to the minute: the mail has no browser to give it a time zone. */
const when = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * To the old address when an account's e-mail changes: if the owner did not make the change, this is
 * how they learn that someone else holds their session or password (ASVS 5.0 §6.3.7).
 */
export function emailChangedMail(
  language: MailLanguage,
  change: { oldEmail: string; newEmail: string; at: Date; appUrl: string },
): MailText {
  if (language === 'it')
    return {
      subject: "L'indirizzo email del tuo account uvtrace è cambiato",
      text: [
        `Il ${when(change.at)} l'indirizzo email del tuo account uvtrace è stato cambiato da ${change.oldEmail} a ${change.newEmail}.`,
        '',
        "Se non sei stato tu, contatta subito l'amministratore di uvtrace: qualcuno potrebbe usare il tuo account.",
        '',
        change.appUrl,
      ].join('\n'),
    };
  return {
    subject: 'The e-mail address of your uvtrace account was changed',
    text: [
      `On ${when(change.at)} the e-mail address of your uvtrace account was changed from ${change.oldEmail} to ${change.newEmail}.`,
      '',
      'If you did not make this change, contact your uvtrace administrator at once: someone may be using your account.',
      '',
      change.appUrl,
    ].join('\n'),
  };
}

/**
 * Where a password reset mail's link goes. The outbox keeps the mail with this line instead of the link,
 * so staff reading the outbox see that a reset mail was sent, never its link; the sender puts the link in
 * its place when it sends the mail (docs/accounts.md §4).
 */
export function resetLinkPlaceholder(language: MailLanguage): string {
  return language === 'it'
    ? '[link monouso: solo nella copia inviata al destinatario]'
    : '[one-time link: only in the copy sent to the addressee]';
}

/** The mail of a password reset request, its link still a placeholder. */
export function passwordResetMail(language: MailLanguage, validMinutes: number): MailText {
  const link = resetLinkPlaceholder(language);
  if (language === 'it')
    return {
      subject: 'Reimposta la password di uvtrace',
      text: [
        'È stato chiesto di reimpostare la password del tuo account uvtrace.',
        '',
        `Apri questo link entro ${validMinutes} minuti per sceglierne una nuova (funziona una volta sola):`,
        link,
        '',
        'Se non sei stato tu, ignora questa email: la tua password resta quella di prima.',
      ].join('\n'),
    };
  return {
    subject: 'Reset your uvtrace password',
    text: [
      'Someone asked to reset the password of your uvtrace account.',
      '',
      `Open this link within ${validMinutes} minutes to choose a new one (it works once):`,
      link,
      '',
      'If it was not you, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}
