/**
 * Where a record's anchoring stands, as a small chip: the sterilization list and its details show the
 * same words as the verification window (blocks.status.*). MINED and FINAL both mean anchored; FINAL,
 * past the chain's finality, can no longer be undone by a reorganisation (docs/integrity.md §8).
 */
import { Chip } from '@mui/material';
import { useIntl } from 'react-intl';
import type { Sterilization } from '#shared/api/index.ts';

type State = 'not_enabled' | 'waiting' | 'PENDING' | 'SENT' | 'MINED' | 'FINAL' | 'FAILED';

const COLOR: Record<State, 'success' | 'info' | 'error' | 'default'> = {
  not_enabled: 'default',
  waiting: 'default',
  PENDING: 'default',
  SENT: 'info',
  MINED: 'success',
  FINAL: 'success',
  FAILED: 'error',
};

export function anchorState(record: Pick<Sterilization, 'blockchain_enabled' | 'blockchain_data'>): State {
  if (!record.blockchain_enabled) return 'not_enabled';
  return record.blockchain_data?.blockchain_data_block.status ?? 'waiting';
}

export function AnchorStatusChip({
  record,
}: {
  record: Pick<Sterilization, 'blockchain_enabled' | 'blockchain_data'>;
}) {
  const intl = useIntl();
  const state = anchorState(record);
  const label =
    state === 'not_enabled' || state === 'waiting'
      ? intl.formatMessage({ id: `anchoring.state.${state}` })
      : intl.formatMessage({ id: `blocks.status.${state}` });
  return (
    <Chip
      size="small"
      variant={state === 'FINAL' ? 'filled' : 'outlined'}
      color={COLOR[state]}
      data-testid="anchor-status"
      data-status={state}
      label={label}
    />
  );
}
