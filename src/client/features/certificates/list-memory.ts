/**
 * docs/product.md §2: the certificate list's sort and page are kept across visits. The URL holds them while
 * on the list; the last ones are also remembered for the browser session, so opening the list again
 * from the menu (a URL without search params) comes back to the same page and sort.
 */
import type { ListSearch } from '#client/components/data-table/list-search.ts';

const STORAGE_KEY = 'uvtrace.certificates.list';

export function rememberListSearch<S extends string>(search: ListSearch<S>): void {
  try {
    sessionStorage.setItem(
      STORAGE_KEY,
      JSON.stringify({ page: search.page, sortBy: search.sortBy, sortDir: search.sortDir }),
    );
  } catch {
    // Storage disabled: the URL still keeps the state while on the list.
  }
}

/** The remembered raw search (validated again by the route), or null. */
export function rememberedListSearch(): Record<string, unknown> | null {
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

export function forgetListSearch(): void {
  try {
    sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing stored
  }
}
