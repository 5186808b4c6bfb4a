/**
 * A record's lot compliance as a small chip: the sterilization details card, the
 * verification modal and the recall list show the same words and colours.
 */
import { Chip } from '@mui/material';
import { useIntl } from 'react-intl';
import type { LotStatus } from '#shared/api/index.ts';

const COLOR: Record<LotStatus, 'success' | 'error' | 'warning' | 'default'> = {
  certified: 'success',
  uncertified: 'error',
  expired: 'warning',
  no_lot: 'default',
};

/** Uncertified and expired lots are the flagged ones (docs/adr/0024-lot-compliance-and-recall.md). */
export const isFlaggedLot = (status: LotStatus) => status === 'uncertified' || status === 'expired';

export function LotStatusChip({ status }: { status: LotStatus }) {
  const intl = useIntl();
  return (
    <Chip
      size="small"
      variant={isFlaggedLot(status) ? 'filled' : 'outlined'}
      color={COLOR[status]}
      data-testid="lot-status"
      data-status={status}
      label={intl.formatMessage({ id: `lot_status.${status}` })}
    />
  );
}
