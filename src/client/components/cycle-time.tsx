/**
 * A record's own cycle time, as its device dated it, beside the server's arrival time: in the list, the
 * details and the verification window. A time later than the arrival comes from a clock that runs ahead
 * and says so; an older one is normal (the device was offline) and is only shown.
 */
import { Box } from '@mui/material';
import { useIntl } from 'react-intl';
import { formatDateTime } from '#client/lib/dates.ts';
import type { Sterilization } from '#shared/api/index.ts';

export function CycleTime({
  record,
  prefixed = false,
}: {
  record: Pick<Sterilization, 'cycle_ts' | 'clock_suspect'>;
  /** In the list, beneath the arrival time: "device: …". */
  prefixed?: boolean;
}) {
  const intl = useIntl();
  if (!record.cycle_ts) {
    return prefixed ? null : <span>{intl.formatMessage({ id: 'sterilizations.cycle_ts.none' })}</span>;
  }
  const time = formatDateTime(record.cycle_ts);
  return (
    <Box
      component="span"
      data-testid="cycle-ts"
      data-suspect={record.clock_suspect ? 'true' : undefined}
      sx={prefixed ? { display: 'block', fontSize: '0.85em', color: 'text.secondary' } : undefined}
    >
      {prefixed ? intl.formatMessage({ id: 'sterilizations.list.cycle_ts' }, { time }) : time}
      {record.clock_suspect && (
        <Box component="span" sx={{ color: 'warning.dark', fontWeight: 500 }}>
          {` · ${intl.formatMessage({ id: 'sterilizations.cycle_ts.suspect' })}`}
        </Box>
      )}
    </Box>
  );
}
