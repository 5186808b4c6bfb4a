/**
 * A list as one PostgreSQL array parameter (`= any(${idArray(ids)}::bigint[])`): one statement text
 * whatever the number of items, so a named statement's plan serves every call, and the planner
 * estimates a handful of rows and reads them by index. A set-returning function over a JSON list was
 * estimated at 100 rows, and a plan made while a table was small then scanned it whole on every call.
 */
export function idArray(ids: readonly (number | string)[]): string {
  return `{${ids.map((id) => String(Number(id))).join(',')}}`;
}

/** Texts as an array literal: each quoted, with its quotes and backslashes escaped. */
export function textArray(texts: readonly string[]): string {
  return `{${texts.map((text) => `"${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
