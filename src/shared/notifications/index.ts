/**
 * Which alerts reach a user by e-mail: the kinds a role may receive at all (a clinic user never sees a
 * staff-only alert) and what each role gets until the user chooses (nothing for customer
 * care; failures and expiries for clinic users). Used by the server that queues mails and the profile
 * page that offers the choice.
 */
import type { Role } from '../access/index.ts';
import { STAFF_ROLES } from '../access/index.ts';
import { ALERT_KINDS, type AlertKind, STAFF_ONLY_ALERT_KINDS } from '../alerts/index.ts';

export const MAIL_LANGUAGES = ['en', 'it'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

export function emailAlertKindsAvailableTo(role: Role): AlertKind[] {
  if (STAFF_ROLES.includes(role)) return [...ALERT_KINDS];
  return ALERT_KINDS.filter((kind) => !STAFF_ONLY_ALERT_KINDS.includes(kind));
}

const CLINIC_DEFAULT: readonly AlertKind[] = ['failed_cycle', 'certificate_expiring', 'certificate_expired'];

/**
 * A clinic's own users hear of failed cycles and expiring certificates unless they say otherwise; the
 * manufacturer's staff read alerts in the app and opt in to e-mail per kind.
 */
export function defaultEmailAlertKinds(role: Role): AlertKind[] {
  return role === 'CUSTOMER' ? [...CLINIC_DEFAULT] : [];
}

/** The stored choice (null: never chosen) as the kinds that reach the user. */
export function effectiveEmailAlertKinds(role: Role, stored: readonly string[] | null): AlertKind[] {
  const available = emailAlertKindsAvailableTo(role);
  if (stored === null) return defaultEmailAlertKinds(role);
  return available.filter((kind) => stored.includes(kind));
}
