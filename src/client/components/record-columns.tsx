/**
 * The columns a list of sterilization records shares with every other (the sterilization list and the
 * recall page): the same cell for the same field everywhere, each list with its own header text.
 */
import { Box } from '@mui/material';
import type { IntlShape } from 'react-intl';
import { CycleTime } from '#client/components/cycle-time.tsx';
import type { DataColumn } from '#client/components/data-table/index.ts';
import { LotStatusChip } from '#client/components/lot-status-chip.tsx';
import { formatDateTime } from '#client/lib/dates.ts';
import { statusMessageId, truncateName } from '#client/lib/record-format.ts';
import type { Sterilization } from '#shared/api/index.ts';

type RecordColumn = DataColumn<Sterilization>;

/** When it arrived (one line), with the device's own cycle time beneath where the list shows it. */
export const receivedColumn = (headerId: string, options: { cycleTime?: boolean } = {}): RecordColumn => ({
  id: 'received_ts',
  headerId,
  sortKey: 'received_ts',
  cell: (row) => (
    <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
      {formatDateTime(row.received_ts)}
      {options.cycleTime && <CycleTime record={row} prefixed />}
    </Box>
  ),
});

/** The record's customer, a long name cut (docs/product.md §2) with the whole of it as the tooltip. */
export const customerColumn = (headerId: string): RecordColumn => ({
  id: 'customer',
  headerId,
  cell: (row) => {
    const name = row.device.customer.name;
    const short = truncateName(name);
    return short === name ? name : <span title={name}>{short}</span>;
  },
});

/** The cycle's outcome in words (docs/product.md §4), an unknown code as its number. */
export const statusColumn = (intl: IntlShape, headerId: string, optional?: boolean): RecordColumn => ({
  id: 'status',
  headerId,
  ...(optional ? { optional } : {}),
  cell: (row) => {
    const statusId = statusMessageId(row.status_code);
    return statusId ? intl.formatMessage({ id: statusId }) : String(row.status_code);
  },
});

/** Whether the record's lot had a valid certificate (docs/adr/0024-lot-compliance-and-recall.md). */
export const lotStatusColumn = (headerId: string, optional?: boolean): RecordColumn => ({
  id: 'lot_status',
  headerId,
  ...(optional ? { optional } : {}),
  cell: (row) => <LotStatusChip status={row.lot_status} />,
});
