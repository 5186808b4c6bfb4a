import { Box, Button, Divider, ListItemText, Menu, MenuItem, Stack, Typography } from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { formatDateTime } from '#client/lib/dates.ts';
import { useAbilities } from '#client/lib/session.ts';
import type { Alert } from '#shared/api/index.ts';
import { useAlerts } from './api/alerts';
import { AlertActionDialog } from './components/alert-action-dialog';
import { alertSummary } from './components/alert-summary';

/** Latest unacknowledged alerts in the bell's menu. */
const BELL_ROWS = 5;

/**
 * The bell's menu: the latest open alerts with Acknowledge (which opens the comment dialog) and a link
 * to the whole list. Loaded with the first opening (alerts-bell.tsx), so the dates and form code it
 * needs are not part of every first page.
 */
export default function AlertsBellMenu({
  anchor,
  label,
  onClose,
}: {
  anchor: HTMLElement | null;
  label: string;
  onClose: () => void;
}) {
  const intl = useIntl();
  const navigate = useNavigate();
  const abilities = useAbilities();
  const staff = abilities.canSeeAllSterilizations === true;
  const latest = useAlerts({ state: 'open', page: 1, sortBy: 'raised_at', sortDir: 'desc' }, anchor !== null);
  const [acknowledging, setAcknowledging] = useState<Alert | null>(null);
  const rows = (latest.data?.data ?? []).slice(0, BELL_ROWS);

  return (
    <>
      <Menu
        anchorEl={anchor}
        open={anchor !== null}
        onClose={onClose}
        slotProps={{ paper: { sx: { width: 400, maxWidth: '100vw' } }, list: { 'aria-label': label } }}
      >
        <Box sx={{ px: 2, py: 1 }}>
          <Typography variant="subtitle1" component="h2">
            {intl.formatMessage({ id: 'alerts.bell.title' })}
          </Typography>
        </Box>
        <Divider />
        {rows.length === 0 && (
          <MenuItem disabled>
            <ListItemText primary={intl.formatMessage({ id: 'alerts.bell.empty' })} />
          </MenuItem>
        )}
        {rows.map((alert) => (
          <MenuItem key={alert.id} sx={{ whiteSpace: 'normal', alignItems: 'flex-start' }} disableRipple>
            <Stack spacing={0.5} sx={{ width: '100%' }}>
              <ListItemText
                primary={intl.formatMessage({ id: `alerts.kind.${alert.kind}` })}
                secondary={
                  <>
                    {/* Staff see every customer's alerts: each names whose it is. */}
                    {staff && (
                      <Box component="span" sx={{ display: 'block', fontWeight: 500 }}>
                        {alert.customer?.name ?? intl.formatMessage({ id: 'alerts.staff_only' })}
                      </Box>
                    )}
                    <Box component="span" sx={{ display: 'block' }}>
                      {alertSummary(intl, alert)}
                    </Box>
                    {/* A date and time is never broken across lines. */}
                    <Box component="span" sx={{ display: 'block', whiteSpace: 'nowrap' }}>
                      {formatDateTime(alert.raised_at)}
                    </Box>
                  </>
                }
              />
              {abilities.canAcknowledgeAlerts && (
                <Box>
                  <Button
                    size="small"
                    variant="outlined"
                    onClick={() => {
                      onClose();
                      setAcknowledging(alert);
                    }}
                  >
                    {intl.formatMessage({ id: 'alerts.acknowledge.button' })}
                  </Button>
                </Box>
              )}
            </Stack>
          </MenuItem>
        ))}
        <Divider />
        <MenuItem
          onClick={() => {
            onClose();
            void navigate({ to: '/alerts', search: { state: 'active' } });
          }}
        >
          {intl.formatMessage({ id: 'alerts.bell.all' })}
        </MenuItem>
      </Menu>
      <AlertActionDialog alert={acknowledging} action="acknowledge" onClose={() => setAcknowledging(null)} />
    </>
  );
}
