import { Alert, Box, Button, CircularProgress } from '@mui/material';
import { Navigate, useRouter } from '@tanstack/react-router';
import { useIntl } from 'react-intl';

/** Shown while a route's data loads (after the router's pending delay). */
export function PagePending() {
  const intl = useIntl();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
      <CircularProgress aria-label={intl.formatMessage({ id: 'common.loading' })} />
    </Box>
  );
}

/** A route whose data could not load; the alert itself came from the query cache (SPEC §8). */
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

/** SPEC §2: any unknown path goes to the dashboard (which sends a guest on to login). */
export function NotFoundRedirect() {
  return <Navigate to="/" replace />;
}
