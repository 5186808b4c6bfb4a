/**
 * A row the request has just written, read back for its answer. Rows of customers, users and devices
 * are never deleted (only disabled), so a missing one is a broken database, not a client's mistake.
 */
export function written<T>(row: T | undefined, what: string): T {
  if (row === undefined) throw new Error(`${what} vanished right after its write`);
  return row;
}
