import {
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import { useIntl } from 'react-intl';
import { PageError, PagePending } from '#client/components/route-fallbacks.tsx';
import { visuallyHidden } from '#client/components/visually-hidden.ts';
import { formatDateTime } from '#client/lib/dates.ts';
import { toast } from '#client/lib/toasts.tsx';
import { type OwnSession, useEndOtherOwnSessions, useEndOwnSession, useOwnSessions } from './api/sessions';

/**
 * The profile's signed-in sessions (docs/accounts.md §3): where the account is in use now, so a user
 * who sees one they do not recognise can end it (and then change their password).
 */
export function SessionsCard() {
  const intl = useIntl();
  const sessions = useOwnSessions();
  const endOne = useEndOwnSession();
  const endOthers = useEndOtherOwnSessions();
  const others = (sessions.data ?? []).filter((session) => !session.current).length;

  const sessionName = (session: OwnSession) =>
    intl.formatMessage(
      { id: 'profile.sessions.browser_on_os' },
      {
        browser: session.browser ?? intl.formatMessage({ id: 'profile.sessions.unknown_browser' }),
        os: session.os ?? intl.formatMessage({ id: 'profile.sessions.unknown_os' }),
      },
    );
  const ended = (count: number) => toast.success({ id: 'profile.sessions.ended', values: { count } });
  const end = async (session: OwnSession) => {
    try {
      ended((await endOne.mutateAsync(session.id)).ended);
    } catch {
      // The alert came from the mutation cache (docs/product.md §8).
    }
  };
  const endAllOthers = async () => {
    try {
      ended((await endOthers.mutateAsync()).ended);
    } catch {
      // As above.
    }
  };

  return (
    <Card component="section" aria-labelledby="profile-sessions-title">
      <CardContent>
        <Typography id="profile-sessions-title" variant="h6" component="h2">
          {intl.formatMessage({ id: 'profile.sessions.title' })}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {intl.formatMessage({ id: 'profile.sessions.description' })}
        </Typography>
        {sessions.isPending && <PagePending />}
        {sessions.isError && <PageError />}
        {sessions.data && (
          <TableContainer>
            <Table size="small" aria-labelledby="profile-sessions-title">
              <TableHead>
                <TableRow>
                  <TableCell>{intl.formatMessage({ id: 'profile.sessions.column.device' })}</TableCell>
                  <TableCell>{intl.formatMessage({ id: 'profile.sessions.column.address' })}</TableCell>
                  <TableCell>{intl.formatMessage({ id: 'profile.sessions.column.started' })}</TableCell>
                  <TableCell>{intl.formatMessage({ id: 'profile.sessions.column.last_seen' })}</TableCell>
                  <TableCell>
                    <Box component="span" sx={visuallyHidden}>
                      {intl.formatMessage({ id: 'profile.sessions.column.actions' })}
                    </Box>
                  </TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {sessions.data.map((session) => (
                  <TableRow key={session.id} data-current={session.current || undefined}>
                    <TableCell>{sessionName(session)}</TableCell>
                    <TableCell>{session.ip ?? '—'}</TableCell>
                    <TableCell>{formatDateTime(session.created_at)}</TableCell>
                    <TableCell>{formatDateTime(session.last_seen_at)}</TableCell>
                    <TableCell align="right">
                      {session.current ? (
                        <Chip
                          size="small"
                          color="primary"
                          label={intl.formatMessage({ id: 'profile.sessions.this' })}
                        />
                      ) : (
                        <Button
                          size="small"
                          color="error"
                          disabled={endOne.isPending}
                          onClick={() => void end(session)}
                          aria-label={intl.formatMessage(
                            { id: 'profile.sessions.end.label' },
                            { session: sessionName(session), ip: session.ip ?? '—' },
                          )}
                        >
                          {intl.formatMessage({ id: 'profile.sessions.end' })}
                        </Button>
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
        {sessions.data && (
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', alignItems: 'center', gap: 2, mt: 2 }}>
            {others === 0 && (
              <Typography variant="body2" color="text.secondary">
                {intl.formatMessage({ id: 'profile.sessions.none_other' })}
              </Typography>
            )}
            <Button
              variant="outlined"
              color="error"
              disabled={others === 0 || endOthers.isPending}
              onClick={() => void endAllOthers()}
              startIcon={endOthers.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
            >
              {intl.formatMessage({ id: 'profile.sessions.end_others' })}
            </Button>
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
