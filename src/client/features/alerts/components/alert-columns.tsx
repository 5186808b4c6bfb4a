import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import type { IntlShape } from 'react-intl';
import type { DataColumn } from '#client/components/data-table/index.ts';
import { stopRowClick } from '#client/components/data-table/index.ts';
import { formatDateTime } from '#client/lib/dates.ts';
import type { Abilities, Alert } from '#shared/api/index.ts';
import type { AlertAction } from '../api/alerts';
import { alertSummary } from './alert-summary';

const STATE_COLOURS = { open: 'error', acknowledged: 'warning', resolved: 'success' } as const;

/** The columns of the alerts list and of the device and customer pages' panels. */
export function alertColumns(
  intl: IntlShape,
  abilities: Partial<Abilities>,
  onAction: (alert: Alert, action: AlertAction) => void,
  options: { showCustomer: boolean },
): DataColumn<Alert>[] {
  const columns: DataColumn<Alert>[] = [
    {
      id: 'raised_at',
      headerId: 'alerts.columns.raised_at',
      sortKey: 'raised_at',
      cell: (row) => formatDateTime(row.raised_at),
    },
    {
      id: 'kind',
      headerId: 'alerts.columns.kind',
      sortKey: 'kind',
      cell: (row) => (
        <Box>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {intl.formatMessage({ id: `alerts.kind.${row.kind}` })}
          </Typography>
          <Typography variant="caption" color="text.secondary">
            {alertSummary(intl, row)}
          </Typography>
        </Box>
      ),
    },
  ];
  if (options.showCustomer) {
    columns.push({
      id: 'customer',
      headerId: 'alerts.columns.customer',
      cell: (row) => row.customer?.name ?? intl.formatMessage({ id: 'alerts.staff_only' }),
    });
  }
  columns.push(
    {
      id: 'state',
      headerId: 'alerts.columns.state',
      sortKey: 'state',
      cell: (row) => (
        <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
          <Chip
            size="small"
            color={STATE_COLOURS[row.state]}
            label={intl.formatMessage({ id: `alerts.state.${row.state}` })}
          />
          {row.state !== 'open' && <Typography variant="caption">{stateNote(intl, row)}</Typography>}
        </Stack>
      ),
    },
    {
      id: 'actions',
      headerId: 'alerts.columns.actions',
      align: 'right',
      cell: (row) => (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }} onClick={stopRowClick}>
          {row.state === 'open' && abilities.canAcknowledgeAlerts && (
            <Button size="small" variant="outlined" onClick={() => onAction(row, 'acknowledge')}>
              {intl.formatMessage({ id: 'alerts.acknowledge.button' })}
            </Button>
          )}
          {row.state !== 'resolved' && abilities.canResolveAlerts && (
            <Button size="small" onClick={() => onAction(row, 'resolve')}>
              {intl.formatMessage({ id: 'alerts.resolve.button' })}
            </Button>
          )}
        </Stack>
      ),
    },
  );
  return columns;
}

/** Who acknowledged or resolved it, when, and their comment. */
function stateNote(intl: IntlShape, alert: Alert): string {
  if (alert.state === 'resolved') {
    const by = alert.resolved_by?.name;
    const base =
      alert.resolution === 'cleared' || !by
        ? intl.formatMessage({ id: 'alerts.note.cleared' }, { at: formatDateTime(alert.resolved_at ?? '') })
        : intl.formatMessage(
            { id: 'alerts.note.resolved' },
            { by, at: formatDateTime(alert.resolved_at ?? '') },
          );
    return alert.resolve_comment ? `${base}: ${alert.resolve_comment}` : base;
  }
  const base = intl.formatMessage(
    { id: 'alerts.note.acknowledged' },
    { by: alert.acknowledged_by?.name ?? '—', at: formatDateTime(alert.acknowledged_at ?? '') },
  );
  return alert.acknowledge_comment ? `${base}: ${alert.acknowledge_comment}` : base;
}
