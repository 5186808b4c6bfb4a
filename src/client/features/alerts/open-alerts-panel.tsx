import NotificationsActive from '@mui/icons-material/NotificationsActive';
import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { DataTable, pagedRows } from '#client/components/data-table/index.ts';
import { ListPanel } from '#client/components/list/index.ts';
import { TextLink } from '#client/components/router-link.tsx';
import { useAbilities } from '#client/lib/session.ts';
import type { Alert } from '#shared/api/index.ts';
import { type AlertAction, useAlerts } from './api/alerts';
import { AlertActionDialog } from './components/alert-action-dialog';
import { alertColumns } from './components/alert-columns';

/** The open (not resolved) alerts of one device or customer, on its page, with a link to the full list. */
export function OpenAlertsPanel({ deviceId, customerId }: { deviceId?: number; customerId?: number }) {
  const intl = useIntl();
  const abilities = useAbilities();
  const [page, setPage] = useState(1);
  const filter = { state: 'active', ...(deviceId ? { deviceId } : { customerId }) } as const;
  const alerts = useAlerts({ ...filter, page, sortBy: 'raised_at', sortDir: 'desc' });
  const [acting, setActing] = useState<{ alert: Alert; action: AlertAction } | null>(null);
  const columns = useMemo(
    () =>
      alertColumns(intl, abilities, (alert, action) => setActing({ alert, action }), { showCustomer: false }),
    [intl, abilities],
  );
  return (
    <ListPanel
      headingId={`open-alerts-${deviceId ? `device-${deviceId}` : `customer-${customerId}`}`}
      icon={<NotificationsActive color="action" />}
      titleId="alerts.panel.title"
      link={
        <TextLink to="/alerts" search={{ ...filter, page: 1 }}>
          {intl.formatMessage({ id: 'alerts.panel.open' })}
        </TextLink>
      }
    >
      <DataTable<Alert>
        labelId="alerts.panel.title"
        columns={columns}
        {...pagedRows(alerts)}
        getRowId={(row) => row.id}
        page={page}
        onPageChange={setPage}
        emptyMessageId="alerts.panel.empty"
        size="small"
      />
      {/* A dialog: rendered in a portal, wherever it stands here. */}
      <AlertActionDialog
        alert={acting?.alert ?? null}
        action={acting?.action ?? 'acknowledge'}
        onClose={() => setActing(null)}
      />
    </ListPanel>
  );
}
