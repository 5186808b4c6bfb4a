/**
 * Unsaved changes are never lost silently (docs/product.md §2 Layout): leaving a page whose form has
 * changes not saved yet asks first (the router's blocker: menu, links, back and forward), and reloading
 * or closing the tab gets the browser's own question (beforeunload). Every form uses it through
 * <UnsavedChangesGuard /> inside its <Formik>.
 */
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useBlocker } from '@tanstack/react-router';
import { useFormikContext } from 'formik';
import { useId, useRef } from 'react';
import { useIntl } from 'react-intl';
import { session } from '../lib/session';

/**
 * Blocks leaving the page while `unsaved` holds, and renders the question. Leaving without a session
 * (logout, an expired session) is never held up: there is nothing left to save with.
 */
export function useUnsavedChangesGuard(unsaved: boolean) {
  const intl = useIntl();
  const titleId = useId();
  const holds = useRef(unsaved);
  holds.current = unsaved;
  const blocker = useBlocker({
    shouldBlockFn: ({ current, next }) =>
      holds.current && session.get() !== null && current.pathname !== next.pathname,
    enableBeforeUnload: () => holds.current,
    withResolver: true,
  });
  return (
    <Dialog open={blocker.status === 'blocked'} onClose={() => blocker.reset?.()} aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{intl.formatMessage({ id: 'unsaved.title' })}</DialogTitle>
      <DialogContent>
        <DialogContentText>{intl.formatMessage({ id: 'unsaved.text' })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => blocker.reset?.()} autoFocus>
          {intl.formatMessage({ id: 'unsaved.stay' })}
        </Button>
        <Button color="error" variant="contained" onClick={() => blocker.proceed?.()}>
          {intl.formatMessage({ id: 'unsaved.leave' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** Place inside a <Formik>: its changes, until saved (a save in progress leaves freely). */
export function UnsavedChangesGuard() {
  const { dirty, isSubmitting } = useFormikContext();
  return useUnsavedChangesGuard(dirty && !isSubmitting);
}
