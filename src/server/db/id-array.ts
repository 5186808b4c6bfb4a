/**
 * Ids as one PostgreSQL array parameter (`= any(${idArray(ids)}::bigint[])`): one statement text
 * whatever the number of ids, so a named statement's plan serves every call. The planner estimates a
 * handful of rows for it and reads them by primary key; a set-returning function over a JSON list was
 * estimated at 100 rows, and a plan made while a table was small then scanned it whole on every call.
 */
export function idArray(ids: readonly (number | string)[]): string {
  return `{${ids.map((id) => String(Number(id))).join(',')}}`;
}
