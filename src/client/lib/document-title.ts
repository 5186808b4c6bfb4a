/**
 * The browser tab's title, `<page> · uvtrace`: every screen's page component calls
 * useDocumentTitle once, with a `titles.*` message id and, on a detail page, the entity's name once it
 * has loaded. The title is formatted through react-intl, so it follows a switch of language like the
 * page does. Only the screen's innermost page component calls it: React runs a child's effects before
 * its parent's, so a layout that set a title too would overwrite its tab's.
 */
import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from './api-client';

/** What index.html says, and what the tab reads while no screen names itself (a route still loading). */
const APP_TITLE = 'uvtrace';

/** A `titles.*` message id and its values (an entity's name). */
export type TitleDescriptor = { id: string; values?: Record<string, string | number> };

export function useDocumentTitle(title: TitleDescriptor): void {
  const intl = useIntl();
  const text = intl.formatMessage(
    { id: 'titles.page' },
    { page: intl.formatMessage({ id: title.id }, title.values) },
  );
  useEffect(() => {
    document.title = text;
    // The next screen sets its own title in the same commit (unmount effects run first).
    return () => {
      document.title = APP_TITLE;
    };
  }, [text]);
}

/** The title of a page whose data could not load: a 404 is "Not found", anything else "Error". */
export function errorTitle(error: unknown): TitleDescriptor {
  return error instanceof ApiError && error.status === 404
    ? { id: 'titles.not_found' }
    : { id: 'titles.error' };
}
