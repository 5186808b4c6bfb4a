import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { DataTable, pagedRows, useListControls } from '#client/components/data-table/index.ts';
import {
  FilterBar,
  ListPage,
  SelectFilter,
  useRowSelection,
  useSelectableColumns,
} from '#client/components/list/index.ts';
import { useCustomerOptions } from '#client/lib/reference-lists.ts';
import { useAbilities, useSession } from '#client/lib/session.ts';
import { ALERT_KINDS, ALERT_STATE_FILTERS, STAFF_ONLY_ALERT_KINDS } from '#shared/alerts/index.ts';
import type { Alert } from '#shared/api/index.ts';
import { type AlertAction, useAlerts } from './api/alerts';
import { AlertActionDialog } from './components/alert-action-dialog';
import { AlertBulkBar } from './components/alert-bulk-bar';
import { alertColumns } from './components/alert-columns';
import type { AlertListSearch } from './search';

/**
 * Every alert the user may see, newest first; page, sort and filters live in the URL, so a filtered
 * view (the device page's "all alerts of this device") is a link.
 */
export function AlertsListPage({
  search,
  onSearchChange,
}: {
  search: AlertListSearch;
  onSearchChange: (patch: Partial<AlertListSearch>) => void;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const staff = abilities.canSeeAllSterilizations === true;
  const session = useSession();
  const alerts = useAlerts(search);
  const customers = useCustomerOptions(staff && session !== null);
  const list = useListControls(search, onSearchChange, 'alerts');
  const [acting, setActing] = useState<{ alert: Alert; action: AlertAction } | null>(null);
  const filter = {
    state: search.state,
    kind: search.kind,
    customerId: search.customerId,
    deviceId: search.deviceId,
  };
  const { selection, setSelection, toggle } = useRowSelection(JSON.stringify(filter));
  const canAct = abilities.canAcknowledgeAlerts === true || abilities.canResolveAlerts === true;
  const baseColumns = useMemo(
    () =>
      alertColumns(intl, abilities, (alert, action) => setActing({ alert, action }), {
        showCustomer: staff,
      }),
    [intl, abilities, staff],
  );
  const columns = useSelectableColumns(baseColumns, {
    enabled: canAct,
    selection,
    toggle,
    rowLabel: (row) => intl.formatMessage({ id: 'alerts.bulk.select_one' }, { id: row.id }),
  });
  const kinds = ALERT_KINDS.filter((kind) => staff || !STAFF_ONLY_ALERT_KINDS.includes(kind));
  const filtered = [search.state, search.kind, search.customerId, search.deviceId].some(
    (v) => v !== undefined,
  );

  return (
    <ListPage times titleId="alerts.list.title">
      <FilterBar
        labelId="alerts.filter.label"
        filtered={filtered}
        onReset={() =>
          onSearchChange({
            state: undefined,
            kind: undefined,
            customerId: undefined,
            deviceId: undefined,
            page: 1,
          })
        }
      >
        <SelectFilter
          name="state"
          labelId="alerts.filter.state"
          value={search.state}
          allLabelId="alerts.filter.all_states"
          options={ALERT_STATE_FILTERS.map((state) => ({
            value: state,
            label: intl.formatMessage({ id: `alerts.state.${state}` }),
          }))}
          onChange={(value) =>
            onSearchChange({ state: ALERT_STATE_FILTERS.find((state) => state === value), page: 1 })
          }
        />
        <SelectFilter
          name="kind"
          labelId="alerts.filter.kind"
          value={search.kind}
          allLabelId="alerts.filter.all_kinds"
          minWidth={240}
          options={kinds.map((kind) => ({
            value: kind,
            label: intl.formatMessage({ id: `alerts.kind.${kind}` }),
          }))}
          onChange={(value) => onSearchChange({ kind: ALERT_KINDS.find((kind) => kind === value), page: 1 })}
        />
        {staff && (
          <SelectFilter
            name="customerId"
            labelId="alerts.filter.customer"
            value={search.customerId === undefined ? undefined : String(search.customerId)}
            allLabelId="alerts.filter.all_customers"
            minWidth={240}
            options={(customers.data ?? []).map((customer) => ({
              value: String(customer.id),
              label: customer.name,
            }))}
            onChange={(value) => onSearchChange({ customerId: value ? Number(value) : undefined, page: 1 })}
          />
        )}
      </FilterBar>
      {canAct && (
        <AlertBulkBar
          rows={alerts.data?.data ?? []}
          total={alerts.data?.total ?? 0}
          filter={filter}
          selection={selection}
          onSelectionChange={setSelection}
        />
      )}
      <DataTable<Alert>
        {...list}
        labelId="alerts.list.title"
        columns={columns}
        {...pagedRows(alerts)}
        getRowId={(row) => row.id}
        emptyMessageId="alerts.list.empty"
      />
      <AlertActionDialog
        alert={acting?.alert ?? null}
        action={acting?.action ?? 'acknowledge'}
        onClose={() => setActing(null)}
      />
    </ListPage>
  );
}
