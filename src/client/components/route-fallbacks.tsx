import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { type ErrorComponentProps, Navigate, useRouter } from '@tanstack/react-router';
import { useIntl } from 'react-intl';
import { errorTitle, useDocumentTitle } from '../lib/document-title';
import { NotAuthorisedError } from '../lib/route-guards';
import { ButtonLink } from './router-link';

/** Shown while a route's data loads (after the router's pending delay). */
export function PagePending() {
  const intl = useIntl();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
      <CircularProgress aria-label={intl.formatMessage({ id: 'common.loading' })} />
    </Box>
  );
}

/** A route whose data could not load; the alert itself came from the query cache (docs/product.md §8). */
export function PageError() {
  const intl = useIntl();
  const router = useRouter();
  return (
    <Alert
      severity="error"
      action={
        <Button color="inherit" size="small" onClick={() => void router.invalidate()}>
          {intl.formatMessage({ id: 'common.retry' })}
        </Button>
      }
    >
      {intl.formatMessage({ id: 'errors.generic' })}
    </Alert>
  );
}

/** A page the session's modules or abilities do not grant (lib/route-guards.ts). */
export function NotAuthorised() {
  const intl = useIntl();
  useDocumentTitle({ id: 'titles.not_allowed' });
  return (
    <Alert
      severity="warning"
      action={
        <ButtonLink to="/" color="inherit" size="small">
          {intl.formatMessage({ id: 'layout.menu.dashboard' })}
        </ButtonLink>
      }
    >
      {intl.formatMessage({ id: 'errors.not_authorised_page' })}
    </Alert>
  );
}

/** The router's error view: "not authorised" for a page the session does not grant, else PageError. */
export function RouteError({ error }: ErrorComponentProps) {
  return error instanceof NotAuthorisedError ? <NotAuthorised /> : <RoutePageError error={error} />;
}

/** PageError is also drawn inside pages that set their own title: only the router's error names the tab. */
function RoutePageError({ error }: { error: unknown }) {
  useDocumentTitle(errorTitle(error));
  return <PageError />;
}

/** docs/product.md §2: any unknown path goes to the dashboard (which sends a guest on to login). */
export function NotFoundRedirect() {
  return <Navigate to="/" replace />;
}
