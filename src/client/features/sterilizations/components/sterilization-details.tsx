import { Box, Card, CardContent, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { AnchorStatusChip } from '#client/components/anchor-status-chip.tsx';
import { CycleReportButton } from '#client/components/cycle-report/cycle-report-button.tsx';
import { CycleTime } from '#client/components/cycle-time.tsx';
import { LotStatusChip } from '#client/components/lot-status-chip.tsx';
import { RecordEvidence } from '#client/components/record-evidence.tsx';
import { notesText, statusMessageId } from '#client/lib/record-format.ts';
import type { Sterilization } from '#shared/api/index.ts';

/**
 * docs/product.md §2 details card: status, UV dose, nominal and effective time (minutes), lamp life (hours),
 * notes; the device's own cycle time and what the device signed.
 */
export function SterilizationDetails({ record }: { record: Sterilization }) {
  const intl = useIntl();
  const number = (value: number) => intl.formatNumber(value, { maximumFractionDigits: 6 });
  const statusId = statusMessageId(record.status_code);
  const items: Array<[string, ReactNode]> = [
    [
      'sterilizations.details.status',
      statusId ? intl.formatMessage({ id: statusId }) : String(record.status_code),
    ],
    ['sterilizations.details.supplied_energy', number(record.supplied_energy)],
    [
      'sterilizations.details.nominal_time',
      intl.formatMessage(
        { id: 'sterilizations.details.minutes' },
        { count: record.nominal_time, value: number(record.nominal_time) },
      ),
    ],
    [
      'sterilizations.details.effective_time',
      intl.formatMessage(
        { id: 'sterilizations.details.minutes' },
        { count: record.effective_time, value: number(record.effective_time) },
      ),
    ],
    [
      'sterilizations.details.residual_lamp_life',
      intl.formatMessage(
        { id: 'sterilizations.details.hours' },
        { count: record.residual_lamp_life, value: number(record.residual_lamp_life) },
      ),
    ],
    ['sterilizations.details.notes', notesText(record.notes)],
    ['sterilizations.details.cycle_ts', <CycleTime key="cycle" record={record} />],
    [
      'sterilizations.details.arrival',
      intl.formatMessage({
        id: record.arrived_out_of_order
          ? 'sterilizations.details.arrival_out_of_order'
          : 'sterilizations.details.arrival_in_order',
      }),
    ],
    ['lot_status.label', <LotStatusChip key="lot" status={record.lot_status} />],
    ['sterilizations.details.anchoring', <AnchorStatusChip key="anchoring" record={record} />],
  ];
  const titleId = `sterilization-details-${record.id}`;
  return (
    <Card variant="outlined" sx={{ mt: 1, minWidth: 260, textAlign: 'left' }} aria-labelledby={titleId}>
      <CardContent sx={{ py: 1.5, '&:last-child': { pb: 1.5 } }}>
        <Typography id={titleId} variant="subtitle2" component="h2" gutterBottom>
          {intl.formatMessage({ id: 'sterilizations.details.title' })}
        </Typography>
        <Box
          component="dl"
          data-testid="sterilization-details"
          sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, m: 0 }}
        >
          {items.map(([labelId, value]) => (
            <Box key={labelId} sx={{ display: 'contents' }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {intl.formatMessage({ id: labelId })}
              </Typography>
              <Typography
                component="dd"
                variant="body2"
                sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              >
                {value}
              </Typography>
            </Box>
          ))}
        </Box>
        <Box sx={{ mt: 1 }}>
          <RecordEvidence recordId={record.id} />
        </Box>
        <Box sx={{ mt: 1 }}>
          <CycleReportButton recordId={record.id} />
        </Box>
      </CardContent>
    </Card>
  );
}
