import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import VerifiedUser from '@mui/icons-material/VerifiedUser';
import { Box, Button, Stack, Typography } from '@mui/material';
import { useCallback, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import type { Sterilization } from '../../../shared/api/index.ts';
import { AbilityGate } from '../../components/ability-gate';
import {
  type DataColumn,
  DataTable,
  detailRowId,
  pagedRows,
  useListControls,
} from '../../components/data-table';
import { DateRangeFilter } from '../../components/data-table/date-filter';
import { ExportLink } from '../../components/export-link';
import { FilterBar, ListPage, SelectFilter } from '../../components/list';
import { formatDateTime } from '../../lib/dates';
import { useAbilities, useSession } from '../../lib/session';
import {
  type SterilizationFilters,
  useSterilizationCustomerFilter,
  useSterilizationDeviceFilter,
  useSterilizations,
} from './api/sterilizations';
import { SterilizationDetails } from './components/sterilization-details';
import { truncateName } from './format';
import { effectiveSearch, type SterilizationListSearch } from './search';

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
 * SPEC §2 Sterilization list. Filters, sort and page live in the URL (a filtered view is a link);
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
  const list = useListControls(search, onSearchChange);
  const query = effectiveSearch(search, user);
  const sterilizations = useSterilizations(query);
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(() => new Set());

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
    from: search.from,
    to: search.to,
  };
  const filtered = [search.customerId, search.deviceId, search.from, search.to].some(
    (value) => value !== undefined,
  );

  const toggle = useCallback((id: number) => {
    setExpanded((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);

  const columns = useMemo<DataColumn<Sterilization>[]>(
    () => [
      {
        id: 'received_ts',
        headerId: 'sterilizations.list.date',
        sortKey: 'received_ts',
        cell: (row) => (
          <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(row.received_ts)}
          </Box>
        ),
      },
      {
        id: 'customer',
        headerId: 'sterilizations.list.customer',
        cell: (row) => {
          const name = row.device.customer.name;
          const short = truncateName(name);
          return short === name ? name : <span title={name}>{short}</span>;
        },
      },
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
      {
        id: 'actions',
        headerId: 'sterilizations.list.actions',
        cell: (row) => {
          const open = expanded.has(row.id);
          return (
            <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
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
    [expanded, intl, onVerify, toggle],
  );

  return (
    <ListPage titleId="sterilizations.list.title">
      <FilterBar
        labelId="sterilizations.filter.label"
        resetLabelId="sterilizations.filter.reset"
        filtered={filtered}
        onReset={() =>
          onSearchChange({
            customerId: undefined,
            deviceId: undefined,
            from: undefined,
            to: undefined,
            page: 1,
          })
        }
        trailing={
          abilities.canDownloadSterilizations && (
            <ExportLink
              exportName="sterilizations-filtered"
              filters={filters}
              labelId="sterilizations.filter.download"
            />
          )
        }
      >
        {/* The hint says what the filter shows; the gate's tooltip names the ability it lacks. */}
        <AbilityGate ability="canSeeAllSterilizations">
          <SelectFilter
            name="customerId"
            labelId="sterilizations.filter.customer"
            value={customerId === undefined ? undefined : String(customerId)}
            options={customers.map((option) => ({ value: String(option.id), label: option.name }))}
            allLabelId={canSeeAll ? 'sterilizations.filter.all_customers' : undefined}
            disabled={!canSeeAll}
            disabledHintId="sterilizations.filter.customer_hint"
            minWidth={240}
            onChange={(value) =>
              onSearchChange({
                customerId: value === undefined ? undefined : Number(value),
                deviceId: undefined,
                page: 1,
              })
            }
          />
        </AbilityGate>
        <SelectFilter
          name="deviceId"
          labelId="sterilizations.filter.device"
          value={search.deviceId === undefined ? undefined : String(search.deviceId)}
          options={devices.map((option) => ({ value: String(option.id), label: option.device_serial }))}
          allLabelId="sterilizations.filter.all_devices"
          disabled={customerId === undefined}
          disabledHintId="sterilizations.filter.device_hint"
          // The customer goes into the URL with the device: a device filter is dropped without one,
          // and a customer user's (fixed) customer is otherwise not there.
          onChange={(value) =>
            onSearchChange({ customerId, deviceId: value === undefined ? undefined : Number(value), page: 1 })
          }
        />
        <DateRangeFilter
          names={['from', 'to']}
          labelIds={['sterilizations.filter.from', 'sterilizations.filter.to']}
          value={[search.from, search.to]}
          onChange={([from, to]) => onSearchChange({ from, to, page: 1 })}
        />
      </FilterBar>
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
