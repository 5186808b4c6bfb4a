import { Box, Card, CardContent, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { timeZoneLabel } from '#client/lib/dates.ts';

/**
 * The frame of every list screen: its title (the page's h1) with an optional action beside it (create,
 * upload), then one card holding the filters and the table.
 */
export function ListPage({
  titleId,
  action,
  times = false,
  children,
}: {
  titleId: string;
  action?: ReactNode;
  /** The list shows instants in local time: say in which zone, once, under the title. */
  times?: boolean;
  children: ReactNode;
}) {
  const intl = useIntl();
  return (
    <Stack spacing={2}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap' }}>
        <Typography variant="h4" component="h1" sx={{ flexGrow: 1 }}>
          {intl.formatMessage({ id: titleId })}
        </Typography>
        {action}
      </Box>
      {times && (
        <Typography variant="body2" color="text.secondary" data-testid="list-time-zone" sx={{ mt: -1 }}>
          {intl.formatMessage({ id: 'lists.time_zone' }, { zone: timeZoneLabel() })}
        </Typography>
      )}
      <Card>
        <CardContent>{children}</CardContent>
      </Card>
    </Stack>
  );
}
