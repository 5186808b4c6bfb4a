import RestartAlt from '@mui/icons-material/RestartAlt';
import { Box, Button } from '@mui/material';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';

/**
 * A list's filters (a `search` landmark named by `labelId`), then its Reset button — enabled only while
 * some filter is set — and whatever follows it (the download link).
 */
export function FilterBar({
  labelId,
  resetLabelId,
  filtered,
  onReset,
  trailing,
  children,
}: {
  labelId: string;
  resetLabelId: string;
  filtered: boolean;
  onReset: () => void;
  trailing?: ReactNode;
  children: ReactNode;
}) {
  const intl = useIntl();
  return (
    <Box
      role="search"
      aria-label={intl.formatMessage({ id: labelId })}
      // Top-aligned: a disabled filter's hint beneath it must not push its neighbours down.
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'flex-start',
        gap: 2,
        mb: 1,
        // A disabled filter's hint is read, not greyed out: MUI's disabled grey is below WCAG AA contrast.
        '& .MuiFormHelperText-root.Mui-disabled': { color: 'text.secondary' },
      }}
    >
      {children}
      <Button startIcon={<RestartAlt />} disabled={!filtered} onClick={onReset}>
        {intl.formatMessage({ id: resetLabelId })}
      </Button>
      {trailing}
    </Box>
  );
}
