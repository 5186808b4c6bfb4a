/**
 * The verification window's form: the record's fourteen hashed fields, editable, each changed one marked
 * with its stored value; above them the lot's compliance and the device's cycle time, which are shown
 * beside the record but not hashed.
 */
import { Alert, Box, Stack, TextField, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { CycleTime } from '#client/components/cycle-time.tsx';
import { LotStatusChip } from '#client/components/lot-status-chip.tsx';
import { formatDateTimeWithUtc } from '#client/lib/dates.ts';
import type { Sterilization } from '#shared/api/index.ts';
import { INTEGRITY_FIELDS, type IntegrityField, type VerificationForm } from './verification';

export function RecordFieldsForm({
  record,
  form,
  onChange,
  stored,
  changed,
  narrow,
  restore,
}: {
  record: Sterilization;
  form: VerificationForm;
  onChange: (field: IntegrityField, value: string) => void;
  stored: VerificationForm;
  changed: ReadonlySet<IntegrityField>;
  /** On a phone the changed fields and Restore are shown before the form, not in it. */
  narrow: boolean;
  restore: ReactNode;
}) {
  const intl = useIntl();
  return (
    <Box
      component="form"
      aria-label={intl.formatMessage({ id: 'integrity.form' })}
      onSubmit={(event) => event.preventDefault()}
    >
      <Stack spacing={1.5}>
        {/* The lot's compliance is not part of the hashed record: a fact about it today, shown beside it. */}
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} data-testid="integrity-lot-status">
          <Typography variant="body2" color="text.secondary">
            {intl.formatMessage({ id: 'lot_status.label' })}
          </Typography>
          <LotStatusChip status={record.lot_status} />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline' }} data-testid="integrity-cycle-ts">
          <Typography variant="body2" color="text.secondary">
            {intl.formatMessage({ id: 'sterilizations.details.cycle_ts' })}
          </Typography>
          <Typography variant="body2" component="span">
            <CycleTime record={record} />
          </Typography>
        </Stack>
        {changed.size > 0 && !narrow && (
          <Alert severity="warning" data-testid="integrity-changed">
            {intl.formatMessage({ id: 'integrity.changed.count' }, { count: changed.size })}
          </Alert>
        )}
        {INTEGRITY_FIELDS.map((field: IntegrityField) => {
          const isChanged = changed.has(field);
          return (
            <TextField
              key={field}
              id={`integrity-${field}`}
              name={field}
              size="small"
              fullWidth
              multiline={field === 'notes'}
              minRows={field === 'notes' ? 2 : undefined}
              label={intl.formatMessage({ id: `integrity.field.${field}` })}
              value={form[field]}
              onChange={(event) => onChange(field, event.target.value)}
              helperText={
                isChanged
                  ? intl.formatMessage(
                      { id: 'integrity.changed.stored' },
                      { value: stored[field] || intl.formatMessage({ id: 'integrity.changed.empty' }) },
                    )
                  : field === 'received_ts'
                    ? // The field holds the hashed UTC form; the reader gets their local time beside it.
                      intl.formatMessage(
                        { id: 'integrity.received_ts.local' },
                        { value: formatDateTimeWithUtc(form.received_ts) },
                      )
                    : undefined
              }
              data-changed={isChanged ? 'true' : undefined}
              sx={
                isChanged
                  ? {
                      '& .MuiOutlinedInput-notchedOutline': { borderColor: 'warning.main', borderWidth: 2 },
                      // The default helper colour: warning.dark on white fails WCAG AA contrast.
                      '& .MuiFormHelperText-root': { fontWeight: 500 },
                    }
                  : undefined
              }
            />
          );
        })}
        {!narrow && restore}
      </Stack>
    </Box>
  );
}
