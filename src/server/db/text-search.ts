/**
 * The lists' free-text search (`q`): a row matches when one of the list's searched columns contains
 * the text, ignoring case. The pattern is ILIKE '%text%' with LIKE's wildcards escaped, so what the
 * user typed is matched literally; the trigram GIN indexes of migration list_search serve it.
 */
import { type AnyColumn, or, type SQL, sql } from 'drizzle-orm';

/** The contract's `q` as a search: trimmed, and no search at all when blank. */
export function searchText(q: string | undefined): string | undefined {
  const text = q?.trim();
  return text ? text : undefined;
}

/** `text` as a LIKE pattern that matches it anywhere: `\`, `%` and `_` stand for themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** A condition true when any of `columns` contains `text` (case-insensitive); undefined without text. */
export function anyColumnContains(columns: (AnyColumn | SQL)[], text: string | undefined): SQL | undefined {
  if (text === undefined) return undefined;
  const pattern = containsPattern(text);
  // ESCAPE spelled out: backslash is LIKE's default escape, but saying so keeps the pattern's meaning
  // independent of the server's settings.
  return or(...columns.map((column) => sql`${column} ilike ${pattern} escape '\\'`));
}
