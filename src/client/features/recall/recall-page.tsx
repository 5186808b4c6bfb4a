import { Alert, Box, Chip, Stack, Typography } from '@mui/material';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { DateRangeFilter } from '#client/components/data-table/date-filter.tsx';
import {
  type DataColumn,
  DataTable,
  pagedRows,
  useListControls,
} from '#client/components/data-table/index.ts';
import { ExportLink } from '#client/components/export-link.tsx';
import {
  type CustomerDeviceFilterIds,
  CustomerDeviceFilters,
  FilterBar,
  ListPage,
  TextFilter,
} from '#client/components/list/index.ts';
import {
  customerColumn,
  lotStatusColumn,
  receivedColumn,
  statusColumn,
} from '#client/components/record-columns.tsx';
import { formatDateTime, formatDay } from '#client/lib/dates.ts';
import { useAbilities, useSession } from '#client/lib/session.ts';
import type { RecallCount, RecallSummary, Sterilization } from '#shared/api/index.ts';
import { useRecallRecords, useRecallSummary } from './api/recall';
import { type RecallSearch, recallQuery } from './search';

const FILTER_IDS: CustomerDeviceFilterIds = {
  customer: 'recall.filter.customer',
  allCustomers: 'recall.filter.all_customers',
  device: 'recall.filter.device',
  allDevices: 'recall.filter.all_devices',
  deviceHint: 'recall.filter.device_hint',
};

type DeviceCount = RecallSummary['devices'][number];

/**
 * The lot's records counted per clinic or per device: who has to be told, and about how many cycles.
 * The list's own table, so on a phone each row is a card like every list's (nothing scrolls sideways).
 */
function CountsTable({
  titleId,
  rows,
  device,
}: {
  titleId: string;
  rows: (RecallCount | DeviceCount)[];
  device: boolean;
}) {
  const intl = useIntl();
  const id = `recall-${device ? 'devices' : 'customers'}-title`;
  const columns = useMemo<DataColumn<RecallCount | DeviceCount>[]>(
    () => [
      { id: 'customer', headerId: 'recall.counts.customer', cell: (row) => row.customer_name },
      ...(device
        ? [
            {
              id: 'device',
              headerId: 'recall.counts.device',
              cell: (row: RecallCount | DeviceCount) => ('device_serial' in row ? row.device_serial : ''),
            },
          ]
        : []),
      {
        id: 'records',
        headerId: 'recall.counts.records',
        align: 'right',
        cell: (row) => intl.formatNumber(row.records),
      },
      {
        id: 'flagged',
        headerId: 'recall.counts.flagged',
        align: 'right',
        cell: (row) => intl.formatNumber(row.flagged),
      },
      { id: 'first', headerId: 'recall.counts.first', cell: (row) => formatDateTime(row.first_received_ts) },
      { id: 'last', headerId: 'recall.counts.last', cell: (row) => formatDateTime(row.last_received_ts) },
    ],
    [device, intl],
  );
  return (
    <Box
      component="section"
      aria-labelledby={id}
      data-testid={device ? 'recall-devices' : 'recall-customers'}
    >
      <Typography id={id} variant="subtitle1" component="h2" gutterBottom>
        {intl.formatMessage({ id: titleId })}
      </Typography>
      <DataTable<RecallCount | DeviceCount>
        labelId={titleId}
        columns={columns}
        rows={rows}
        getRowId={(row) => ('device_id' in row ? `${row.customer_id}-${row.device_id}` : row.customer_id)}
        emptyMessageId="recall.list.empty"
        isFetching={false}
        size="small"
      />
    </Box>
  );
}

function SummaryView({ summary }: { summary: RecallSummary }) {
  const intl = useIntl();
  return (
    <Stack spacing={2} sx={{ my: 2 }} data-testid="recall-summary">
      <Typography>
        {intl.formatMessage({ id: 'recall.summary.records' }, { count: summary.records, lot: summary.lot })}
      </Typography>
      {summary.certificates.length === 0 ? (
        <Alert severity="warning">{intl.formatMessage({ id: 'recall.summary.no_certificate' })}</Alert>
      ) : (
        <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap', alignItems: 'center' }}>
          <Typography variant="body2" color="text.secondary">
            {intl.formatMessage({ id: 'recall.summary.certificates' })}
          </Typography>
          {summary.certificates.map((certificate) => (
            <Chip
              key={certificate.id}
              size="small"
              variant="outlined"
              label={intl.formatMessage(
                { id: 'recall.summary.certificate' },
                {
                  treatment: certificate.validated_treatment_number,
                  expiration: formatDay(certificate.expiration_date),
                },
              )}
            />
          ))}
        </Stack>
      )}
      {summary.customers.length > 0 && (
        <CountsTable titleId="recall.counts.per_customer" rows={summary.customers} device={false} />
      )}
      {summary.devices.length > 0 && (
        <CountsTable titleId="recall.counts.per_device" rows={summary.devices} device />
      )}
    </Stack>
  );
}

/**
 * Recall by lot: every record that used a consumables lot, per customer and device. The
 * lot, filters, sort and page live in the URL, so a recall is a link to hand on. The counts cover the
 * whole lot (in the chosen days); the customer and device filters narrow the records below them, and
 * offer only the customers and devices that used the lot.
 */
export function RecallPage({
  search,
  onSearchChange,
}: {
  search: RecallSearch;
  onSearchChange: (patch: Partial<RecallSearch>) => void;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const user = useSession()?.user;
  const list = useListControls(search, onSearchChange, 'recall');
  const query = recallQuery(search, user);
  const records = useRecallRecords(query);
  const summary = useRecallSummary(
    query === null ? null : { lot: query.lot, from: query.from, to: query.to },
  );
  const customerId = query?.customerId;
  const customers = summary.data?.customers ?? [];
  const devices = (summary.data?.devices ?? []).filter((device) => device.customer_id === customerId);
  const filtered = [search.lot, search.customerId, search.deviceId, search.from, search.to].some(
    (value) => value !== undefined,
  );

  const columns = useMemo<DataColumn<Sterilization>[]>(
    () => [
      receivedColumn('recall.list.date'),
      customerColumn('recall.list.customer'),
      {
        id: 'device_serial',
        headerId: 'recall.list.device_serial',
        sortKey: 'device_serial',
        cell: (row) => row.device_serial,
      },
      {
        id: 'lot_progressive',
        headerId: 'recall.list.lot_progressive',
        cell: (row) => row.lot_progressive_id ?? '',
      },
      statusColumn(intl, 'recall.list.status'),
      lotStatusColumn('recall.list.lot_status'),
    ],
    [intl],
  );

  return (
    <ListPage times titleId="recall.title">
      <FilterBar
        labelId="recall.filter.label"
        filtered={filtered}
        onReset={() =>
          onSearchChange({
            lot: undefined,
            customerId: undefined,
            deviceId: undefined,
            from: undefined,
            to: undefined,
            page: 1,
          })
        }
        trailing={
          query !== null &&
          abilities.canDownloadSterilizations && (
            <ExportLink
              exportName="recall"
              filters={{
                lot: query.lot,
                customerId: query.customerId,
                deviceId: query.deviceId,
                from: query.from,
                to: query.to,
              }}
              labelId="recall.filter.download"
            />
          )
        }
      >
        <TextFilter
          name="lot"
          labelId="recall.filter.lot"
          value={search.lot}
          onChange={(lot) => onSearchChange({ lot, customerId: undefined, deviceId: undefined, page: 1 })}
        />
        <CustomerDeviceFilters
          ids={FILTER_IDS}
          customers={customers.map((row) => ({ value: String(row.customer_id), label: row.customer_name }))}
          devices={devices.map((row) => ({ value: String(row.device_id), label: row.device_serial }))}
          customerId={customerId}
          deviceId={search.deviceId}
          customerDisabled={query === null}
          onChange={(patch) => onSearchChange({ ...patch, page: 1 })}
        />
        <DateRangeFilter
          names={['from', 'to']}
          labelIds={['recall.filter.from', 'recall.filter.to']}
          value={[search.from, search.to]}
          onChange={([from, to]) => onSearchChange({ from, to, page: 1 })}
        />
      </FilterBar>
      {query === null ? (
        <Alert severity="info" sx={{ my: 2 }}>
          {intl.formatMessage({ id: 'recall.prompt' })}
        </Alert>
      ) : (
        <>
          {summary.data && <SummaryView summary={summary.data} />}
          <DataTable<Sterilization>
            labelId="recall.list.title"
            columns={columns}
            {...pagedRows(records)}
            getRowId={(row) => row.id}
            {...list}
            emptyMessageId="recall.list.empty"
          />
        </>
      )}
    </ListPage>
  );
}
