/** Pieces the table and the card layout of DataTable share. */
import Refresh from '@mui/icons-material/Refresh';
import { Box, Button, CircularProgress } from '@mui/material';
import type { KeyboardEvent } from 'react';
import { useIntl } from 'react-intl';

/** Rows that open on Enter are in the tab order; MUI gives them no focus style. */
export const FOCUS_RING = {
  outline: '2px solid',
  outlineColor: 'primary.main',
  outlineOffset: '-2px',
} as const;

/**
 * A row (table row or card) that opens with Enter or Space, like the click, when it has the focus
 * itself (not one of its buttons).
 */
export function openOnKey<T>(onRowClick: ((row: T) => void) | undefined) {
  return (row: T) => (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowClick?.(row);
    }
  };
}

/** The DOM id of a row's detail row (see DataTableProps.renderDetail). */
export function detailRowId(rowId: string | number): string {
  return `row-detail-${rowId}`;
}

/** What a list without rows shows: a spinner on its first load, its failure with Retry, or "no rows". */
export function NoRows({
  loading,
  loadFailed,
  onRetry,
  emptyMessageId,
}: {
  loading: boolean;
  loadFailed: boolean;
  onRetry?: () => void;
  emptyMessageId: string;
}) {
  const intl = useIntl();
  if (loading)
    return <CircularProgress size={28} aria-label={intl.formatMessage({ id: 'common.loading' })} />;
  if (!loadFailed) return <>{intl.formatMessage({ id: emptyMessageId })}</>;
  return (
    <Box
      role="alert"
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 1, color: 'error.main' }}
    >
      {intl.formatMessage({ id: 'list.load_failed' })}
      {onRetry && (
        <Button variant="outlined" size="small" startIcon={<Refresh />} onClick={onRetry}>
          {intl.formatMessage({ id: 'common.retry' })}
        </Button>
      )}
    </Box>
  );
}
