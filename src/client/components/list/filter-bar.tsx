import FilterList from '@mui/icons-material/FilterList';
import RestartAlt from '@mui/icons-material/RestartAlt';
import { Badge, Box, Button, Collapse, useMediaQuery, useTheme } from '@mui/material';
import { type ReactNode, useId, useState } from 'react';
import { useIntl } from 'react-intl';

/**
 * A list's filters (a `search` landmark named by `labelId`), then its Reset button — enabled only while
 * some filter is set — and whatever follows it (the download link). Given `active` (how many filters
 * are set), on a phone the filters fold behind a "Filters" button showing that count, so the list is
 * on the first screen; the button opens and closes them.
 */
export function FilterBar({
  labelId,
  filtered,
  active,
  onReset,
  trailing,
  children,
}: {
  labelId: string;
  filtered: boolean;
  /** How many filters are set: with it, the filters fold on a phone. */
  active?: number;
  onReset: () => void;
  trailing?: ReactNode;
  children: ReactNode;
}) {
  const intl = useIntl();
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const folds = narrow && active !== undefined;
  const filters = (
    <Box
      id={panelId}
      // Top-aligned: a disabled filter's hint beneath it must not push its neighbours down.
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'flex-start',
        gap: 2,
        // A disabled filter's hint is read, not greyed out: MUI's disabled grey is below WCAG AA contrast.
        '& .MuiFormHelperText-root.Mui-disabled': { color: 'text.secondary' },
        // On a phone each filter takes the width.
        ...(folds ? { flexDirection: 'column', alignItems: 'stretch', pt: 1 } : {}),
      }}
    >
      {children}
      <Button
        startIcon={<RestartAlt />}
        disabled={!filtered}
        onClick={onReset}
        sx={{ alignSelf: 'flex-start' }}
      >
        {/* One word on every list: "Reset" (docs/lists.md). */}
        {intl.formatMessage({ id: 'list.filter.reset' })}
      </Button>
      {!folds && trailing}
    </Box>
  );
  return (
    <Box role="search" aria-label={intl.formatMessage({ id: labelId })} sx={{ mb: 1 }}>
      {folds ? (
        <>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}>
            <Button
              variant="outlined"
              aria-expanded={open}
              aria-controls={panelId}
              onClick={() => setOpen((shown) => !shown)}
              startIcon={
                <Badge badgeContent={active} color="primary" aria-hidden>
                  <FilterList />
                </Badge>
              }
            >
              {intl.formatMessage({ id: 'list.filters.toggle' }, { count: active })}
            </Button>
            {trailing}
          </Box>
          <Collapse in={open}>{filters}</Collapse>
        </>
      ) : (
        filters
      )}
    </Box>
  );
}
