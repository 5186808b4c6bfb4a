import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import RestartAlt from '@mui/icons-material/RestartAlt';
import VerifiedUser from '@mui/icons-material/VerifiedUser';
import { Box, Button, Card, CardContent, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useCallback, useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import type { Sterilization } from '../../../shared/api/index.ts';
import { type DataColumn, DataTable, detailRowId, useListControls } from '../../components/data-table';
import { DateFilter } from '../../components/data-table/date-filter';
import { downloadUrl, ExportLink } from '../../components/export-link';
import { useAbilities, useSession } from '../../lib/session';
import {
  filteredExportUrl,
  type SterilizationFilters,
  useFilteredSterilizationsExport,
  useSterilizationCustomerFilter,
  useSterilizationDeviceFilter,
  useSterilizations,
} from './api/sterilizations';
import { SterilizationDetails } from './components/sterilization-details';
import { formatReceived, truncateName } from './format';
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
  const exporter = useFilteredSterilizationsExport();
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
            {formatReceived(row.received_ts)}
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
    <Stack spacing={2}>
      <Typography variant="h4" component="h1">
        {intl.formatMessage({ id: 'sterilizations.list.title' })}
      </Typography>
      <Card>
        <CardContent>
          <Box
            role="search"
            aria-label={intl.formatMessage({ id: 'sterilizations.filter.label' })}
            sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2, mb: 1 }}
          >
            <TextField
              select
              size="small"
              name="customerId"
              label={intl.formatMessage({ id: 'sterilizations.filter.customer' })}
              value={customers.some((option) => option.id === customerId) ? String(customerId) : ''}
              disabled={!canSeeAll}
              onChange={(event) =>
                onSearchChange({
                  customerId: event.target.value ? Number(event.target.value) : undefined,
                  deviceId: undefined,
                  page: 1,
                })
              }
              sx={{ minWidth: 240 }}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              {canSeeAll && (
                <MenuItem value="">
                  <em>{intl.formatMessage({ id: 'sterilizations.filter.all_customers' })}</em>
                </MenuItem>
              )}
              {customers.map((option) => (
                <MenuItem key={option.id} value={String(option.id)}>
                  {option.name}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              size="small"
              name="deviceId"
              label={intl.formatMessage({ id: 'sterilizations.filter.device' })}
              value={devices.some((option) => option.id === search.deviceId) ? String(search.deviceId) : ''}
              disabled={customerId === undefined}
              onChange={(event) =>
                onSearchChange({
                  deviceId: event.target.value ? Number(event.target.value) : undefined,
                  page: 1,
                })
              }
              sx={{ minWidth: 180 }}
              slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            >
              <MenuItem value="">
                <em>{intl.formatMessage({ id: 'sterilizations.filter.all_devices' })}</em>
              </MenuItem>
              {devices.map((option) => (
                <MenuItem key={option.id} value={String(option.id)}>
                  {option.device_serial}
                </MenuItem>
              ))}
            </TextField>
            <DateFilter
              name="from"
              labelId="sterilizations.filter.from"
              value={search.from}
              onChange={(from) => onSearchChange({ from, page: 1 })}
            />
            <DateFilter
              name="to"
              labelId="sterilizations.filter.to"
              value={search.to}
              onChange={(to) => onSearchChange({ to, page: 1 })}
            />
            <Button
              startIcon={<RestartAlt />}
              disabled={!filtered}
              onClick={() =>
                onSearchChange({
                  customerId: undefined,
                  deviceId: undefined,
                  from: undefined,
                  to: undefined,
                  page: 1,
                })
              }
            >
              {intl.formatMessage({ id: 'sterilizations.filter.reset' })}
            </Button>
            {abilities.canDownloadSterilizations && (
              <ExportLink
                href={filteredExportUrl(filters)}
                labelId="sterilizations.filter.download"
                pending={exporter.isPending}
                onExport={() => exporter.mutate(filters, { onSuccess: downloadUrl })}
              />
            )}
          </Box>
          <DataTable<Sterilization>
            labelId="sterilizations.list.title"
            columns={columns}
            rows={sterilizations.data?.data}
            getRowId={(row) => row.id}
            total={sterilizations.data?.total}
            perPage={sterilizations.data?.per_page}
            {...list}
            emptyMessageId="sterilizations.list.empty"
            isFetching={sterilizations.isFetching}
            renderDetail={(row) => (expanded.has(row.id) ? <SterilizationDetails record={row} /> : null)}
          />
        </CardContent>
      </Card>
    </Stack>
  );
}
