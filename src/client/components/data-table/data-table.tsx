/**
 * The one list component (docs/adr/0014-client-structure-and-lists.md): a server-paged, server-sorted MUI
 * table driven by TanStack Table. Page and sort live in the URL (see list-search.ts); this component
 * only shows them and reports changes. Paginators above and below, hidden when every row fits the
 * smallest page; below, the rows-per-page choice (PAGE_SIZES, in the URL as `perPage`).
 */
import {
  Box,
  LinearProgress,
  MenuItem,
  Pagination,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TableSortLabel,
  TextField,
  useMediaQuery,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import {
  type ColumnDef,
  flexRender,
  getCoreRowModel,
  type SortingState,
  useReactTable,
} from '@tanstack/react-table';
import { Fragment, type KeyboardEvent, type MouseEvent, type ReactNode, useMemo } from 'react';
import { useIntl } from 'react-intl';
import type { ListName } from '#shared/api/index.ts';
import { applyColumnChoice, choosableColumns } from './column-choice';
import { ColumnsMenu } from './columns-menu';
import { ACTIONS_COLUMN_ID, DataCards } from './data-cards';
import { useKeepColumns, useKeptColumns } from './list-preferences';
import { PAGE_SIZES, type SortDir } from './list-search';
import { detailRowId, FOCUS_RING, NoRows, openOnKey } from './row-parts';
import { ViewsMenu } from './views-menu';

export { detailRowId };

export type DataColumn<T> = {
  /**
   * Unique column id (also the key of the cell). The id `actions` marks a row's buttons: on narrow
   * screens they are the card's footer instead of a labelled value (see data-cards.tsx).
   */
  id: string;
  /** Message id of the header text. */
  headerId: string;
  /** Renders the cell of one row. */
  cell: (row: T) => ReactNode;
  /** The server's `sortBy` value for this column; omitted = not sortable. */
  sortKey?: string;
  align?: 'left' | 'right' | 'center';
  width?: number | string;
  /** Shown only when chosen in the Columns menu (column-choice.ts); the others are the default columns. */
  optional?: boolean;
};

export type DataTableProps<T> = {
  /** Message id of the table's accessible name. */
  labelId: string;
  columns: ReadonlyArray<DataColumn<T>>;
  /** The current page's rows; undefined while the first page loads (a spinner) or when it failed (empty). */
  rows: readonly T[] | undefined;
  getRowId: (row: T) => string | number;
  /** Total rows on the server, page size (from the server) and the current page (1-based). */
  total?: number;
  perPage?: number;
  page?: number;
  onPageChange?: (page: number) => void;
  /** Rows per page chosen (one of PAGE_SIZES); without it the list keeps the server's size. */
  onPerPageChange?: (perPage: number) => void;
  sortBy?: string;
  sortDir?: SortDir;
  /** A header was clicked: the new sort (a new column starts ascending, the same column flips). */
  onSortChange?: (sortBy: string, sortDir: SortDir) => void;
  onRowClick?: (row: T) => void;
  /** Message id shown when there are no rows (e.g. "customers.list.empty"). */
  emptyMessageId: string;
  /** A fetch is running (first load, page/sort/filter change or refetch): shows a spinner. */
  isFetching?: boolean;
  /**
   * The rows could not be loaded (an error answer or no answer): instead of the empty message the list
   * says so, with a Retry button calling `onRetry`. The rows stay empty (docs/product.md §7).
   */
  loadFailed?: boolean;
  onRetry?: () => void;
  /** Compact rows. */
  size?: 'small' | 'medium';
  /**
   * A row's expanded detail, shown full width beneath it (null: collapsed). Detail rows carry the id
   * `detailRowId(rowId)` so the toggle can point at them with aria-controls.
   */
  renderDetail?: (row: T) => ReactNode | null;
  /**
   * The list's name (useListControls): with it, a toolbar above the rows offers the Columns and Views
   * menus, and the columns shown are `columnChoice` (the URL's `columns`), else the user's kept choice,
   * else the default ones.
   */
  listName?: ListName;
  columnChoice?: string;
  onColumnChoiceChange?: (columns: string | undefined) => void;
};

/**
 * Stops a click inside a row (an action button or link) from also triggering the row click.
 * Use as `onClick={stopRowClick}` on the action's container.
 */
export function stopRowClick(event: MouseEvent | KeyboardEvent): void {
  event.stopPropagation();
}

/** How many rows a page shows, from PAGE_SIZES (the current size is the server's `per_page`). */
function PageSizeSelect({ perPage, onChange }: { perPage: number; onChange: (perPage: number) => void }) {
  const intl = useIntl();
  return (
    <TextField
      select
      size="small"
      label={intl.formatMessage({ id: 'common.pagination.per_page' })}
      value={perPage}
      onChange={(event) => onChange(Number(event.target.value))}
      sx={{ minWidth: 130 }}
    >
      {PAGE_SIZES.map((size) => (
        <MenuItem key={size} value={size}>
          {intl.formatNumber(size)}
        </MenuItem>
      ))}
    </TextField>
  );
}

function ListPagination({
  page,
  pageCount,
  onPageChange,
  position,
  narrow,
  pageSize,
}: {
  page: number;
  pageCount: number;
  onPageChange?: (page: number) => void;
  position: 'top' | 'bottom';
  narrow: boolean;
  /** The rows-per-page choice, beside the pages (bottom only). */
  pageSize?: ReactNode;
}) {
  const intl = useIntl();
  return (
    <Box
      sx={{
        display: 'flex',
        justifyContent: 'flex-end',
        alignItems: 'center',
        flexWrap: 'wrap',
        gap: 1,
        py: 1,
      }}
      data-testid={`pagination-${position}`}
    >
      {pageSize}
      {pageCount > 1 && (
        <Pagination
          count={pageCount}
          page={Math.min(Math.max(page, 1), pageCount)}
          onChange={(_event, next) => onPageChange?.(next)}
          color="primary"
          shape="rounded"
          // Fits a 390 px screen: first, previous, 1, …, current, …, last, next, last.
          size={narrow ? 'small' : 'medium'}
          siblingCount={narrow ? 0 : 1}
          showFirstButton
          showLastButton
          aria-label={intl.formatMessage({ id: `common.pagination.${position}` })}
          getItemAriaLabel={(type, itemPage, selected) => {
            if (type === 'page') {
              return intl.formatMessage(
                { id: selected ? 'common.pagination.current' : 'common.pagination.page' },
                { page: itemPage ?? 0 },
              );
            }
            return intl.formatMessage({ id: `common.pagination.${type}` });
          }}
        />
      )}
    </Box>
  );
}

/**
 * The actions column only when some row has an action: a column of empty cells (a role that may do
 * nothing on these rows) says nothing and takes room. Without rows it is left out too.
 */
function withoutEmptyActions<T>(
  columns: ReadonlyArray<DataColumn<T>>,
  rows: readonly T[],
): ReadonlyArray<DataColumn<T>> {
  const actions = columns.find((column) => column.id === ACTIONS_COLUMN_ID);
  if (!actions) return columns;
  const hasAction = rows.some((row) => {
    const cell = actions.cell(row);
    return cell !== null && cell !== undefined && cell !== false;
  });
  return hasAction ? columns : columns.filter((column) => column !== actions);
}

/**
 * A list with a name: its columns as chosen (URL, else kept for the user, else default), and the toolbar
 * with the Columns and Views menus. A new choice goes to the URL and is kept on the server.
 */
function ChosenColumnsTable<T>(props: DataTableProps<T> & { listName: ListName }) {
  const { listName, columns, columnChoice, onColumnChoiceChange } = props;
  const kept = useKeptColumns(listName);
  const keep = useKeepColumns(listName);
  const choice = useMemo(
    () => (typeof columnChoice === 'string' ? columnChoice.split(',') : kept),
    [columnChoice, kept],
  );
  const chosen = useMemo(() => applyColumnChoice(columns, choice), [columns, choice]);
  const shown = choosableColumns(chosen).map((column) => column.id);
  const toolbar = (
    <Box
      data-testid="list-toolbar"
      sx={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'flex-end', gap: 1 }}
    >
      <ViewsMenu
        list={listName}
        keptColumns={typeof columnChoice !== 'string' && kept !== undefined ? shown.join(',') : undefined}
      />
      <ColumnsMenu
        columns={columns}
        shown={shown}
        onChange={(next) => {
          onColumnChoiceChange?.(next?.join(','));
          keep.mutate(next ?? []);
        }}
      />
    </Box>
  );
  return <TableView {...props} columns={chosen} toolbar={toolbar} />;
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { listName } = props;
  return listName === undefined ? (
    <TableView {...props} />
  ) : (
    <ChosenColumnsTable {...props} listName={listName} />
  );
}

function TableView<T>({
  labelId,
  columns: allColumns,
  rows,
  getRowId,
  total,
  perPage,
  page = 1,
  onPageChange,
  onPerPageChange,
  sortBy,
  sortDir = 'asc',
  onSortChange,
  onRowClick,
  emptyMessageId,
  isFetching = false,
  loadFailed = false,
  onRetry,
  size = 'medium',
  renderDetail,
  toolbar,
}: DataTableProps<T> & { toolbar?: ReactNode }) {
  const intl = useIntl();
  const theme = useTheme();
  const columns = useMemo(() => withoutEmptyActions(allColumns, rows ?? []), [allColumns, rows]);
  // noSsr: the first render already knows the width (no table flashing before the cards).
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });

  const columnDefs = useMemo<ColumnDef<T>[]>(
    () =>
      columns.map((column) => ({
        id: column.sortKey ?? column.id,
        header: () => intl.formatMessage({ id: column.headerId }),
        enableSorting: column.sortKey !== undefined,
        meta: column,
      })),
    [columns, intl],
  );
  const sorting = useMemo<SortingState>(
    () => (sortBy ? [{ id: sortBy, desc: sortDir === 'desc' }] : []),
    [sortBy, sortDir],
  );
  const data = useMemo(() => (rows ?? []) as T[], [rows]);

  const table = useReactTable<T>({
    data,
    columns: columnDefs,
    state: { sorting },
    manualSorting: true,
    manualPagination: true,
    enableSortingRemoval: false,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(getRowId(row)),
  });

  const pageCount = total !== undefined && perPage ? Math.ceil(total / perPage) : 0;
  const showPagination = total !== undefined && perPage !== undefined && total > perPage;
  // The size can be chosen once the rows do not all fit the smallest page (and changed back from a larger one).
  const showPageSize =
    onPerPageChange !== undefined && total !== undefined && perPage !== undefined && total > PAGE_SIZES[0];
  // No rows yet and a fetch running: the first load (or a retry of a failed one).
  const loadingFirst = rows === undefined && isFetching;
  const visibleRows = table.getRowModel().rows;
  const noRows = (
    <NoRows
      loading={loadingFirst}
      loadFailed={loadFailed}
      onRetry={onRetry}
      emptyMessageId={emptyMessageId}
    />
  );

  const pagination = (position: 'top' | 'bottom') => {
    const pageSize =
      position === 'bottom' && showPageSize && perPage !== undefined && onPerPageChange ? (
        <PageSizeSelect perPage={perPage} onChange={onPerPageChange} />
      ) : undefined;
    return (
      (showPagination || pageSize) && (
        <ListPagination
          page={page}
          pageCount={showPagination ? pageCount : 1}
          onPageChange={onPageChange}
          position={position}
          narrow={narrow}
          pageSize={pageSize}
        />
      )
    );
  };

  const sortHandler = (key: string) => () => {
    if (!onSortChange) return;
    const next: SortDir = key === sortBy && sortDir === 'asc' ? 'desc' : 'asc';
    onSortChange(key, key === sortBy ? next : 'asc');
  };

  const rowKeyDown = openOnKey(onRowClick);

  return (
    <Box>
      {toolbar}
      {pagination('top')}
      <Box sx={{ height: 4 }}>
        {isFetching && (
          <LinearProgress
            aria-label={intl.formatMessage({ id: 'common.loading' })}
            data-testid="list-fetching"
          />
        )}
      </Box>
      {narrow ? (
        <DataCards<T>
          label={intl.formatMessage({ id: labelId })}
          columns={columns}
          rows={visibleRows}
          sortBy={sortBy}
          sortDir={sortDir}
          onSortChange={onSortChange}
          onRowClick={onRowClick}
          renderDetail={renderDetail}
          isFetching={isFetching}
          noRows={noRows}
        />
      ) : (
        <TableContainer>
          <Table
            size={size}
            aria-label={intl.formatMessage({ id: labelId })}
            aria-busy={isFetching || undefined}
          >
            <TableHead>
              {table.getHeaderGroups().map((group) => (
                <TableRow key={group.id}>
                  {group.headers.map((header) => {
                    const column = header.column.columnDef.meta as DataColumn<T>;
                    const sortKey = column.sortKey;
                    const active = sortKey !== undefined && sortKey === sortBy;
                    return (
                      <TableCell
                        key={header.id}
                        align={column.align}
                        sx={{ fontWeight: 600, width: column.width, whiteSpace: 'nowrap' }}
                        sortDirection={active ? sortDir : false}
                      >
                        {sortKey !== undefined && onSortChange ? (
                          <TableSortLabel
                            active={active}
                            direction={active ? sortDir : 'asc'}
                            onClick={sortHandler(sortKey)}
                          >
                            {flexRender(header.column.columnDef.header, header.getContext())}
                          </TableSortLabel>
                        ) : (
                          flexRender(header.column.columnDef.header, header.getContext())
                        )}
                      </TableCell>
                    );
                  })}
                </TableRow>
              ))}
            </TableHead>
            <TableBody>
              {visibleRows.map((row) => {
                const detail = renderDetail?.(row.original) ?? null;
                return (
                  <Fragment key={row.id}>
                    <TableRow
                      hover={Boolean(onRowClick)}
                      onClick={onRowClick ? () => onRowClick(row.original) : undefined}
                      onKeyDown={onRowClick ? rowKeyDown(row.original) : undefined}
                      tabIndex={onRowClick ? 0 : undefined}
                      sx={{
                        // Rows that open on Enter are in the tab order (FOCUS_RING).
                        ...(onRowClick ? { cursor: 'pointer', '&:focus-visible': FOCUS_RING } : {}),
                        ...(detail !== null ? { '& > td': { borderBottom: 'unset' } } : {}),
                      }}
                    >
                      {row.getVisibleCells().map((cell) => {
                        const column = cell.column.columnDef.meta as DataColumn<T>;
                        return (
                          <TableCell key={cell.id} align={column.align}>
                            {/*
                             * Called, not rendered through flexRender: that makes each new columns
                             * array a new component type, remounting every cell and dropping the focus
                             * of the button that changed it (e.g. a details toggle).
                             */}
                            {column.cell(row.original)}
                          </TableCell>
                        );
                      })}
                    </TableRow>
                    {detail !== null && (
                      <TableRow id={detailRowId(row.id)}>
                        <TableCell colSpan={columns.length}>{detail}</TableCell>
                      </TableRow>
                    )}
                  </Fragment>
                );
              })}
              {visibleRows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={columns.length} align="center" sx={{ py: 4, color: 'text.secondary' }}>
                    <NoRows
                      loading={loadingFirst}
                      loadFailed={loadFailed}
                      onRetry={onRetry}
                      emptyMessageId={emptyMessageId}
                    />
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      {pagination('bottom')}
    </Box>
  );
}

/**
 * The one yes/no cell: YES / NO (SÌ / NO), as docs/product.md writes a device's active column, for every
 * active column (deleted_at empty) and the other yes/no columns (blockchain, an audited flag).
 */
export function YesNo({ value }: { value: boolean }) {
  const intl = useIntl();
  return <>{intl.formatMessage({ id: value ? 'common.yes' : 'common.no' })}</>;
}
