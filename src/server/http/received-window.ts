/**
 * The from/to day filters of the lists and exports (customers' ok counts, sterilizations, audit) as
 * the instants a query compares with: whole UTC days, both ends inclusive.
 */

/**
 * `from` is the first instant counted and `toExclusive` the first instant after the last day (the day
 * after filterTo at 00:00 UTC). A window whose end is before its start simply matches nothing.
 */
export interface ReceivedWindow {
  from: Date | null;
  toExclusive: Date | null;
}

export function receivedWindow(filterFrom: string | undefined, filterTo: string | undefined): ReceivedWindow {
  const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
  let toExclusive: Date | null = null;
  if (filterTo) {
    toExclusive = dayStart(filterTo);
    toExclusive.setUTCDate(toExclusive.getUTCDate() + 1);
  }
  // A bound outside PostgreSQL's years 1..9999 (year 0000, the day after 9999-12-31) excludes nothing.
  const inRange = (date: Date | null) =>
    date && date.getUTCFullYear() >= 1 && date.getUTCFullYear() <= 9999 ? date : null;
  return { from: inRange(filterFrom ? dayStart(filterFrom) : null), toExclusive: inRange(toExclusive) };
}
