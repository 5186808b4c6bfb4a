/**
 * What a saved view keeps of a list's URL (docs/lists.md "Saved views"): its search without `?` and
 * without the page, as the app wrote it, so that picking the view opens the same URL on page 1.
 */

/** A list's URL search as a view keeps it: without `?` and without the page. */
export function viewSearch(searchStr: string): string {
  return searchStr
    .replace(/^\?/, '')
    .split('&')
    .filter((part) => part !== '' && part.split('=')[0] !== 'page')
    .join('&');
}

/**
 * The search to save: the URL's, plus the columns on screen when they come from the user's kept choice
 * (`keptColumns`) rather than from the URL, so the view shows what the user saw.
 */
export function searchToSave(current: string, keptColumns: string | undefined): string {
  const hasColumns = current.split('&').some((part) => part.split('=')[0] === 'columns');
  if (hasColumns || keptColumns === undefined) return current;
  return [current, `columns=${encodeURIComponent(keptColumns)}`].filter((part) => part !== '').join('&');
}
