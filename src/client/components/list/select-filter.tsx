import { MenuItem, TextField } from '@mui/material';
import { useIntl } from 'react-intl';

export interface FilterOption {
  value: string;
  label: string;
}

/**
 * A drop-down filter. `allLabelId` adds the empty choice ("all …"); a value that is not among the
 * options (not loaded yet, or a stale link) shows as that empty choice. A disabled filter says what
 * enables it (`disabledHintId`), so it is not a dead control.
 */
export function SelectFilter({
  name,
  labelId,
  value,
  options,
  onChange,
  allLabelId,
  disabled = false,
  disabledHintId,
  minWidth = 180,
}: {
  name: string;
  labelId: string;
  value: string | undefined;
  options: readonly FilterOption[];
  onChange: (value: string | undefined) => void;
  allLabelId?: string;
  disabled?: boolean;
  /** Message id saying what enables the filter, shown beneath it while it is disabled. */
  disabledHintId?: string;
  minWidth?: number;
}) {
  const intl = useIntl();
  const shown = options.some((option) => option.value === value) ? value : '';
  return (
    <TextField
      select
      size="small"
      name={name}
      label={intl.formatMessage({ id: labelId })}
      value={shown}
      disabled={disabled}
      helperText={disabled && disabledHintId ? intl.formatMessage({ id: disabledHintId }) : undefined}
      onChange={(event) => onChange(event.target.value || undefined)}
      sx={{ minWidth }}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      {allLabelId && (
        <MenuItem value="">
          <em>{intl.formatMessage({ id: allLabelId })}</em>
        </MenuItem>
      )}
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}
