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
  const suspect = record.clock_suspect
    ? ` · ${intl.formatMessage({ id: 'sterilizations.cycle_ts.suspect' })}`
    : '';
  if (prefixed) {
    // Beneath the arrival time in the list, drawn by CSS: the date cell's own text stays the arrival
    // time in the list's format (docs/product.md §2), which readers and tools take from it.
    const text = `${intl.formatMessage({ id: 'sterilizations.list.cycle_ts' }, { time })}${suspect}`;
    return (
      <Box
        component="span"
        data-testid="cycle-ts"
        data-suspect={record.clock_suspect ? 'true' : undefined}
        data-device-time={text}
        sx={{
          display: 'block',
          fontSize: '0.85em',
          color: record.clock_suspect ? 'warning.dark' : 'text.secondary',
          '&::before': { content: 'attr(data-device-time)' },
        }}
      />
    );
  }
  return (
    <Box component="span" data-testid="cycle-ts" data-suspect={record.clock_suspect ? 'true' : undefined}>
      {time}
      {record.clock_suspect && (
        <Box component="span" sx={{ color: 'warning.dark', fontWeight: 500 }}>
          {suspect}
        </Box>
      )}
    </Box>
  );
}
