/**
 * The one date policy of the client (docs/adr/0015-dates-forms-and-abilities-in-the-client.md): a day reads
 * `yyyy-MM-dd`, an instant reads local time `yyyy-MM-dd HH:mm:ss`, in every language. That is docs/product.md
 * §2's list format (and its YYYY-MM-DD expiration dates), unambiguous to English and Italian readers alike
 * (11/04 is not), and it sorts as it reads. Lists, the audit trail, history panels, dialogs and date pickers
 * format here.
 */
import { format, isValid, parseISO } from 'date-fns';

/** date-fns pattern of a day, also the pickers' display format (what the user types). */
export const DAY_FORMAT = 'yyyy-MM-dd';
/** date-fns pattern of an instant in local time. */
export const DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss';

type DateInput = Date | string | null | undefined;

const DAY_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A Date from an API value. A bare day (YYYY-MM-DD) is that day at local midnight: `new Date` would
 * read it as UTC midnight, the day before west of Greenwich.
 */
function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = typeof value === 'string' ? (DAY_ONLY.test(value) ? parseISO(value) : new Date(value)) : value;
  return isValid(date) ? date : null;
}

/** A day, `yyyy-MM-dd`; '' for no value, an unreadable string as it came. */
export function formatDay(value: DateInput): string {
  const date = toDate(value);
  return date ? format(date, DAY_FORMAT) : typeof value === 'string' ? value : '';
}

/** An instant in the browser's time zone, `yyyy-MM-dd HH:mm:ss`; '' for no value, an unreadable string as it came. */
export function formatDateTime(value: DateInput): string {
  const date = toDate(value);
  return date ? format(date, DATE_TIME_FORMAT) : typeof value === 'string' ? value : '';
}

/**
 * The same instant in UTC with milliseconds, `yyyy-MM-dd HH:mm:ss.SSS UTC`: for a value whose exact
 * stored form matters (a hashed timestamp is hashed in UTC, to the millisecond).
 */
export function formatDateTimeUtc(value: DateInput): string {
  const date = toDate(value);
  if (!date) return typeof value === 'string' ? value : '';
  const iso = date.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)} UTC`;
}

/**
 * Local time for reading, with its offset, plus UTC where the exact value matters:
 * "2026-11-23 18:48:38 UTC+01:00 (2026-11-23 17:48:38.605 UTC)".
 */
export function formatDateTimeWithUtc(value: DateInput): string {
  const date = toDate(value);
  if (!date) return typeof value === 'string' ? value : '';
  return `${formatDateTime(date)} ${utcOffset(date)} (${formatDateTimeUtc(date)})`;
}

/** The browser's offset from UTC at that instant, "UTC+01:00" (summer time included). */
export function utcOffset(date: Date = new Date()): string {
  return `UTC${format(date, 'xxx')}`;
}

/**
 * The time zone the lists' local times are in, "Europe/Rome, UTC+01:00": the one mechanism by which a
 * screen of local times says which zone they are in (exports, PDFs and hashed values are UTC).
 */
export function timeZoneLabel(date: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone ? `${zone}, ${utcOffset(date)}` : utcOffset(date);
}

/** The day of a YYYY-MM-DD value (local midnight), or null: what a date picker holds. */
export function dayFromIso(value: string | undefined): Date | null {
  if (!value) return null;
  const date = parseISO(value);
  return isValid(date) ? date : null;
}

/** The YYYY-MM-DD value (URL, API) of a picked day. */
export function isoFromDay(date: Date | null): string | undefined {
  return date && isValid(date) ? format(date, DAY_FORMAT) : undefined;
}
