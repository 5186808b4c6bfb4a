/**
 * A report's period: whole UTC days, both ends inclusive (like every date filter of the app). Without
 * from and to it is the previous calendar month, the month a clinic is usually inspected for.
 */
import type { FieldErrors } from '#shared/validation/index.ts';

export interface ReportPeriod {
  /** YYYY-MM-DD, first day. */
  from: string;
  /** YYYY-MM-DD, last day. */
  to: string;
}

/** Longest period one report covers: a year and a day, so a PDF stays a document an inspector reads. */
export const MAX_PERIOD_DAYS = 366;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const day = (date: Date) => date.toISOString().slice(0, 10);

/** A real calendar day (2027-02-31 is not one) in PostgreSQL's years 1–9999. */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && day(date) === value && date.getUTCFullYear() >= 1;
}

export function previousMonth(now: Date = new Date()): ReportPeriod {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: day(first), to: day(last) };
}

/** The period a request names, or its field errors (message ids). */
export function parsePeriod(
  from: string | undefined,
  to: string | undefined,
): { ok: true; period: ReportPeriod } | { ok: false; errors: FieldErrors } {
  const fromText = from?.trim() ?? '';
  const toText = to?.trim() ?? '';
  if (!fromText && !toText) return { ok: true, period: previousMonth() };
  const errors: FieldErrors = {};
  if (!isCalendarDay(fromText)) errors.from = ['validation.report.from.invalid'];
  if (!isCalendarDay(toText)) errors.to = ['validation.report.to.invalid'];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const days = (Date.parse(`${toText}T00:00:00Z`) - Date.parse(`${fromText}T00:00:00Z`)) / 86_400_000 + 1;
  if (days < 1) return { ok: false, errors: { to: ['validation.report.to.before_from'] } };
  if (days > MAX_PERIOD_DAYS) return { ok: false, errors: { to: ['validation.report.period.too_long'] } };
  return { ok: true, period: { from: fromText, to: toText } };
}

/** The instants a query compares received_ts with: [start, endExclusive). */
export function periodWindow(period: ReportPeriod): { start: Date; endExclusive: Date } {
  const endExclusive = new Date(`${period.to}T00:00:00.000Z`);
  endExclusive.setUTCDate(endExclusive.getUTCDate() + 1);
  return { start: new Date(`${period.from}T00:00:00.000Z`), endExclusive };
}

/** The period of a form whose fields parsePeriod accepted: the days it names, or the previous month. */
export function acceptedPeriod(from: string | undefined, to: string | undefined): ReportPeriod {
  return from && to ? { from, to } : previousMonth();
}
