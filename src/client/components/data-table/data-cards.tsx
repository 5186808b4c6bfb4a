/**
 * DataTable under the `sm` breakpoint (lists usable on a phone): each row becomes a card
 * built from the same column definitions — the first column as its title, the others as label/value
 * pairs, the `actions` column (its buttons) as the card's footer — so every list gets it and nothing is reachable
 * only by scrolling sideways. Headers are gone, so sorting is a select above the cards.
 */
import { Box, MenuItem, Paper, TextField } from '@mui/material';
import type { KeyboardEvent, ReactNode } from 'react';
import { useIntl } from 'react-intl';
import type { DataColumn } from './data-table';
import type { SortDir } from './list-search';
import { detailRowId, FOCUS_RING } from './row-parts';

/** The column id whose cells are a row's actions (buttons), shown apart from the row's values. */
export const ACTIONS_COLUMN_ID = 'actions';

type Row<T> = { id: string; original: T };

function SortSelect<T>({
  columns,
  sortBy,
  sortDir,
  onSortChange,
}: {
  columns: ReadonlyArray<DataColumn<T>>;
  sortBy?: string;
  sortDir: SortDir;
  onSortChange: (sortBy: string, sortDir: SortDir) => void;
}) {
  const intl = useIntl();
  const sortable = columns.filter((column) => column.sortKey !== undefined);
  if (sortable.length === 0) return null;
  const options = sortable.flatMap((column) =>
    (['asc', 'desc'] as const).map((dir) => ({
      value: `${column.sortKey}:${dir}`,
      label: intl.formatMessage(
        { id: `list.sort.${dir}` },
        { column: intl.formatMessage({ id: column.headerId }) },
      ),
    })),
  );
  const value = `${sortBy}:${sortDir}`;
  return (
    <TextField
      select
      size="small"
      fullWidth
      label={intl.formatMessage({ id: 'list.sort.label' })}
      value={options.some((option) => option.value === value) ? value : ''}
      onChange={(event) => {
        const [key, dir] = event.target.value.split(':');
        if (key && (dir === 'asc' || dir === 'desc')) onSortChange(key, dir);
      }}
      sx={{ my: 1 }}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
}

export function DataCards<T>({
  label,
  columns,
  rows,
  sortBy,
  sortDir,
  onSortChange,
  onRowClick,
  renderDetail,
  isFetching,
  noRows,
}: {
  label: string;
  columns: ReadonlyArray<DataColumn<T>>;
  rows: ReadonlyArray<Row<T>>;
  sortBy?: string;
  sortDir: SortDir;
  onSortChange?: (sortBy: string, sortDir: SortDir) => void;
  onRowClick?: (row: T) => void;
  renderDetail?: (row: T) => ReactNode | null;
  isFetching: boolean;
  /** What shows without rows (the spinner, the failure, the empty message). */
  noRows: ReactNode;
}) {
  const intl = useIntl();
  const [title, ...rest] = columns.filter((column) => column.id !== ACTIONS_COLUMN_ID);
  const actions = columns.find((column) => column.id === ACTIONS_COLUMN_ID);

  const keyDown = (row: T) => (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      onRowClick?.(row);
    }
  };

  return (
    <>
      {onSortChange && (
        <SortSelect columns={columns} sortBy={sortBy} sortDir={sortDir} onSortChange={onSortChange} />
      )}
      {rows.length === 0 ? (
        <Box sx={{ py: 4, textAlign: 'center', color: 'text.secondary' }}>{noRows}</Box>
      ) : (
        <Box
          component="ul"
          aria-label={label}
          aria-busy={isFetching || undefined}
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'flex', flexDirection: 'column', gap: 1 }}
        >
          {rows.map((row) => {
            const detail = renderDetail?.(row.original) ?? null;
            const action = actions?.cell(row.original);
            return (
              <Paper
                component="li"
                variant="outlined"
                key={row.id}
                onClick={onRowClick ? () => onRowClick(row.original) : undefined}
                onKeyDown={onRowClick ? keyDown(row.original) : undefined}
                tabIndex={onRowClick ? 0 : undefined}
                sx={{
                  p: 1.5,
                  minWidth: 0,
                  overflowWrap: 'anywhere',
                  ...(onRowClick ? { cursor: 'pointer', '&:focus-visible': FOCUS_RING } : {}),
                }}
              >
                {title && <Box sx={{ fontWeight: 600 }}>{title.cell(row.original)}</Box>}
                {rest.length > 0 && (
                  <Box
                    component="dl"
                    sx={{
                      display: 'grid',
                      gridTemplateColumns: 'minmax(0, 2fr) minmax(0, 3fr)',
                      columnGap: 1.5,
                      rowGap: 0.5,
                      m: 0,
                      mt: 1,
                      typography: 'body2',
                      '& dt': { color: 'text.secondary' },
                      '& dd': { m: 0, minWidth: 0 },
                    }}
                  >
                    {rest.map((column) => (
                      <Box key={column.id} sx={{ display: 'contents' }}>
                        <dt>{intl.formatMessage({ id: column.headerId })}</dt>
                        <dd>{column.cell(row.original)}</dd>
                      </Box>
                    ))}
                  </Box>
                )}
                {action !== null && action !== undefined && (
                  <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 0.5 }}>{action}</Box>
                )}
                {detail !== null && (
                  <Box id={detailRowId(row.id)} sx={{ mt: 1 }}>
                    {detail}
                  </Box>
                )}
              </Paper>
            );
          })}
        </Box>
      )}
    </>
  );
}
