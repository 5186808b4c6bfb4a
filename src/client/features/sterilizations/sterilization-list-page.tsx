import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import Refresh from '@mui/icons-material/Refresh';
import VerifiedUser from '@mui/icons-material/VerifiedUser';
import { Box, Button, Chip, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { AnchorStatusChip } from '#client/components/anchor-status-chip.tsx';
import { CycleTime } from '#client/components/cycle-time.tsx';
import { DateRangeFilter } from '#client/components/data-table/date-filter.tsx';
import {
  type DataColumn,
  DataTable,
  detailRowId,
  pagedRows,
  useListControls,
} from '#client/components/data-table/index.ts';
import { ExportLink } from '#client/components/export-link.tsx';
import {
  type CustomerDeviceFilterIds,
  CustomerDeviceFilters,
  FilterBar,
  ListPage,
  SelectFilter,
} from '#client/components/list/index.ts';
import {
  customerColumn,
  lotStatusColumn,
  receivedColumn,
  statusColumn,
} from '#client/components/record-columns.tsx';
import { countAnnounced, useAnnouncedRecords } from '#client/lib/new-records.ts';
import { notesText } from '#client/lib/record-format.ts';
import { useAbilities, useSession } from '#client/lib/session.ts';
import { parseAnomaly, STERILIZATION_ANOMALIES } from '#client/lib/sterilization-anomaly.ts';
import type { Sterilization } from '#shared/api/index.ts';
import {
  type SterilizationFilters,
  useSterilizationCustomerFilter,
  useSterilizationDeviceFilter,
  useSterilizations,
} from './api/sterilizations';
import { SterilizationDetails } from './components/sterilization-details';
import {
  effectiveSearch,
  isOpeningView,
  LOT_STATUS_FILTERS,
  mayListNewRecords,
  parseLotStatus,
  type SterilizationListSearch,
} from './search';

const FILTER_IDS: CustomerDeviceFilterIds = {
  customer: 'sterilizations.filter.customer',
  allCustomers: 'sterilizations.filter.all_customers',
  customerHint: 'sterilizations.filter.customer_hint',
  device: 'sterilizations.filter.device',
  allDevices: 'sterilizations.filter.all_devices',
  deviceHint: 'sterilizations.filter.device_hint',
};

function TwoLines({ main, sub }: { main: string; sub: string | null }) {
  return (
    <>
      <Box component="span" sx={{ display: 'block' }}>
        {main}
      </Box>
      {sub && (
        <Typography component="span" variant="caption" color="text.secondary" sx={{ display: 'block' }}>
          {sub}
        </Typography>
      )}
    </>
  );
}

/**
 * docs/product.md §2 Sterilization list. Filters, sort and page live in the URL (a filtered view is a link);
 * `onVerify` opens the verification modal, which the route provides (features stay independent).
 */
export function SterilizationListPage({
  search,
  onSearchChange,
  onVerify,
}: {
  search: SterilizationListSearch;
  onSearchChange: (patch: Partial<SterilizationListSearch>) => void;
  onVerify: (record: Sterilization) => void;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const user = useSession()?.user;
  const canSeeAll = abilities.canSeeAllSterilizations === true;
  const list = useListControls(search, onSearchChange, 'sterilizations');
  const query = effectiveSearch(search, user);
  const sterilizations = useSterilizations(query);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());

  // Records announced live since these rows were loaded: the opening view reloads for them, any other
  // view keeps its rows where the user is reading and offers them ("N new records").
  const announced = useAnnouncedRecords();
  const openingView = isOpeningView(search);
  const loadedAt = sterilizations.dataUpdatedAt;
  const { refetch } = sterilizations;
  const newRecords = countAnnounced(announced, loadedAt, (records) => mayListNewRecords(query, records));
  const reloadedFor = useRef(0);
  useEffect(() => {
    const latest = announced.at(-1)?.receivedAt ?? 0;
    if (!openingView || latest <= loadedAt || latest <= reloadedFor.current) return;
    reloadedFor.current = latest;
    void refetch();
  }, [announced, openingView, loadedAt, refetch]);

  // Without canSeeAllSterilizations the customer is the user's own, whatever the URL says.
  const customerFilter = useSterilizationCustomerFilter(canSeeAll);
  const customers = useMemo(() => {
    if (canSeeAll) return customerFilter.data ?? [];
    return user ? [{ id: user.customer_id, name: user.customer_name }] : [];
  }, [canSeeAll, customerFilter.data, user]);
  const customerId = query.customerId;
  const deviceFilter = useSterilizationDeviceFilter(customerId);
  const devices = customerId !== undefined ? (deviceFilter.data ?? []) : [];

  const filters: SterilizationFilters = {
    customerId: query.customerId,
    deviceId: search.deviceId,
    anomaly: search.anomaly,
    from: search.from,
    to: search.to,
    lotStatus: search.lotStatus,
  };
  const active = [
    search.customerId,
    search.deviceId,
    search.anomaly,
    search.from,
    search.to,
    search.lotStatus,
  ].filter((value) => value !== undefined).length;
  const filtered = active > 0;

  const toggle = useCallback((id: number) => {
    setExpanded((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);

  const number = useCallback(
    (value: number) => intl.formatNumber(value, { maximumFractionDigits: 6 }),
    [intl],
  );
  const columns = useMemo<DataColumn<Sterilization>[]>(
    () => [
      receivedColumn('sterilizations.list.date', { cycleTime: true }),
      customerColumn('sterilizations.list.customer'),
      {
        id: 'device_serial',
        headerId: 'sterilizations.list.device_serial',
        sortKey: 'device_serial',
        cell: (row) => (
          <TwoLines
            main={row.device_serial}
            sub={intl.formatMessage({ id: 'sterilizations.list.progressive' }, { value: row.progressive_id })}
          />
        ),
      },
      {
        id: 'consumables_lot',
        headerId: 'sterilizations.list.lot',
        sortKey: 'consumables_lot',
        cell: (row) => (
          <TwoLines
            main={row.consumables_lot ?? ''}
            sub={
              row.lot_progressive_id === null
                ? null
                : intl.formatMessage(
                    { id: 'sterilizations.list.lot_progressive' },
                    { value: row.lot_progressive_id },
                  )
            }
          />
        ),
      },
      // The details card's fields, as optional columns (docs/lists.md "Columns").
      statusColumn(intl, 'sterilizations.details.status', true),
      {
        id: 'supplied_energy',
        headerId: 'sterilizations.details.supplied_energy',
        optional: true,
        align: 'right',
        cell: (row) => number(row.supplied_energy),
      },
      {
        id: 'nominal_time',
        headerId: 'sterilizations.details.nominal_time',
        optional: true,
        align: 'right',
        cell: (row) =>
          intl.formatMessage(
            { id: 'sterilizations.details.minutes' },
            { count: row.nominal_time, value: number(row.nominal_time) },
          ),
      },
      {
        id: 'effective_time',
        headerId: 'sterilizations.details.effective_time',
        optional: true,
        align: 'right',
        cell: (row) =>
          intl.formatMessage(
            { id: 'sterilizations.details.minutes' },
            { count: row.effective_time, value: number(row.effective_time) },
          ),
      },
      {
        id: 'residual_lamp_life',
        headerId: 'sterilizations.details.residual_lamp_life',
        optional: true,
        align: 'right',
        cell: (row) =>
          intl.formatMessage(
            { id: 'sterilizations.details.hours' },
            { count: row.residual_lamp_life, value: number(row.residual_lamp_life) },
          ),
      },
      {
        id: 'cycle_ts',
        headerId: 'sterilizations.details.cycle_ts',
        optional: true,
        cell: (row) => <CycleTime record={row} />,
      },
      {
        id: 'gps',
        headerId: 'sterilizations.list.gps',
        optional: true,
        cell: (row) =>
          row.latitude === null || row.longitude === null
            ? ''
            : intl.formatMessage(
                { id: 'sterilizations.list.gps_value' },
                { latitude: number(row.latitude), longitude: number(row.longitude) },
              ),
      },
      {
        id: 'lot_progressive',
        headerId: 'sterilizations.list.lot_progressive_column',
        optional: true,
        align: 'right',
        cell: (row) => (row.lot_progressive_id === null ? '' : intl.formatNumber(row.lot_progressive_id)),
      },
      lotStatusColumn('lot_status.label', true),
      {
        id: 'notes',
        headerId: 'sterilizations.details.notes',
        optional: true,
        cell: (row) => (
          <Box component="span" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {notesText(row.notes)}
          </Box>
        ),
      },
      {
        id: 'actions',
        headerId: 'sterilizations.list.actions',
        cell: (row) => {
          const open = expanded.has(row.id);
          return (
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
              <AnchorStatusChip record={row} />
              <Button
                size="small"
                aria-expanded={open}
                aria-controls={open ? detailRowId(row.id) : undefined}
                startIcon={open ? <ExpandLess /> : <ExpandMore />}
                onClick={() => toggle(row.id)}
              >
                {intl.formatMessage({
                  id: open ? 'sterilizations.list.hide_details' : 'sterilizations.list.show_details',
                })}
              </Button>
              <Button size="small" startIcon={<VerifiedUser />} onClick={() => onVerify(row)}>
                {intl.formatMessage({ id: 'sterilizations.list.verify' })}
              </Button>
            </Stack>
          );
        },
      },
    ],
    [expanded, intl, number, onVerify, toggle],
  );

  return (
    <ListPage times titleId="sterilizations.list.title">
      <FilterBar
        labelId="sterilizations.filter.label"
        filtered={filtered}
        active={active}
        onReset={() =>
          onSearchChange({
            customerId: undefined,
            deviceId: undefined,
            anomaly: undefined,
            from: undefined,
            to: undefined,
            lotStatus: undefined,
            page: 1,
          })
        }
        trailing={
          abilities.canDownloadSterilizations && (
            <Box sx={{ display: 'flex', gap: 2, ml: 'auto' }}>
              <ExportLink
                exportName="sterilizations-filtered"
                filters={filters}
                labelId="sterilizations.filter.download"
              />
              {/* The same records' proofs, to check on /verify or with verify-receipt. */}
              <ExportLink
                exportName="sterilizations-proof-bundle"
                filters={filters}
                labelId="sterilizations.filter.download_proofs"
              />
            </Box>
          )
        }
      >
        {/* The hint says what the filter shows; the gate's tooltip names the ability it lacks. */}
        <CustomerDeviceFilters
          ids={FILTER_IDS}
          customers={customers.map((option) => ({ value: String(option.id), label: option.name }))}
          devices={devices.map((option) => ({ value: String(option.id), label: option.device_serial }))}
          customerId={customerId}
          deviceId={search.deviceId}
          onChange={(patch) => onSearchChange({ ...patch, page: 1 })}
        />
        <SelectFilter
          name="anomaly"
          labelId="sterilizations.filter.anomaly"
          value={search.anomaly}
          options={STERILIZATION_ANOMALIES.map((anomaly) => ({
            value: anomaly,
            label: intl.formatMessage({ id: `sterilizations.filter.anomaly_${anomaly}` }),
          }))}
          allLabelId="sterilizations.filter.all_records"
          minWidth={240}
          onChange={(value) => onSearchChange({ anomaly: parseAnomaly(value), page: 1 })}
        />
        <DateRangeFilter
          names={['from', 'to']}
          labelIds={['sterilizations.filter.from', 'sterilizations.filter.to']}
          value={[search.from, search.to]}
          onChange={([from, to]) => onSearchChange({ from, to, page: 1 })}
        />
        <SelectFilter
          name="lotStatus"
          labelId="sterilizations.filter.lot_status"
          value={search.lotStatus}
          options={LOT_STATUS_FILTERS.map((status) => ({
            value: status,
            label: intl.formatMessage({ id: `sterilizations.filter.lot_status_${status}` }),
          }))}
          allLabelId="sterilizations.filter.all_lot_statuses"
          onChange={(value) => onSearchChange({ lotStatus: parseLotStatus(value), page: 1 })}
        />
      </FilterBar>
      {/* Announced politely: a screen reader user hears that rows are waiting without losing their place. */}
      <Box aria-live="polite" sx={{ display: 'flex', justifyContent: 'center', minHeight: 0 }}>
        {!openingView && newRecords > 0 && (
          <Chip
            color="primary"
            icon={<Refresh />}
            clickable
            onClick={() => void refetch()}
            label={intl.formatMessage({ id: 'sterilizations.list.new_records' }, { count: newRecords })}
            sx={{ my: 1 }}
          />
        )}
      </Box>
      <DataTable<Sterilization>
        labelId="sterilizations.list.title"
        columns={columns}
        {...pagedRows(sterilizations)}
        getRowId={(row) => row.id}
        {...list}
        emptyMessageId="sterilizations.list.empty"
        renderDetail={(row) => (expanded.has(row.id) ? <SterilizationDetails record={row} /> : null)}
      />
    </ListPage>
  );
}
