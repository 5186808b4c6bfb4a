/**
 * Acting on many rows of a list at once, the same way on every list that offers it: rows are chosen
 * with their checkboxes (or the whole page), or every row the filters match; the list's bulk actions
 * then act on each on the server, one by one and each audited. What was chosen belongs to the filter
 * it was chosen under: another filter starts with nothing chosen.
 */
import { Box, Button, Checkbox, FormControlLabel, Link, Typography, useMediaQuery } from '@mui/material';
import { useTheme } from '@mui/material/styles';
import { type ReactNode, useState } from 'react';
import { useIntl } from 'react-intl';
import { type DataColumn, stopRowClick } from '../data-table/index.ts';

/** The chosen rows: some ids, or every row the list's filters match. */
export type RowSelection = { ids: ReadonlySet<number> } | { allMatching: true };

export const NOTHING_SELECTED: RowSelection = { ids: new Set() };

export function isSelected(selection: RowSelection, id: number): boolean {
  return 'allMatching' in selection || selection.ids.has(id);
}

/** The ids chosen one by one, or undefined when every matching row is chosen. */
export const chosenIds = (selection: RowSelection): number[] | undefined =>
  'allMatching' in selection ? undefined : [...selection.ids];

/** The selection of a list, reset whenever `filterKey` (the list's filters, serialised) changes. */
export function useRowSelection(filterKey: string) {
  const [chosen, setChosen] = useState<{ filterKey: string; selection: RowSelection }>({
    filterKey,
    selection: NOTHING_SELECTED,
  });
  const selection = chosen.filterKey === filterKey ? chosen.selection : NOTHING_SELECTED;
  const setSelection = (next: RowSelection) => setChosen({ filterKey, selection: next });
  const toggle = (id: number, checked: boolean) => {
    const ids = new Set('ids' in selection ? selection.ids : []);
    if (checked) ids.add(id);
    else ids.delete(id);
    setSelection({ ids });
  };
  return { selection, setSelection, toggle };
}

/**
 * The list's columns with a checkbox per row: a first column on wide screens, or (`inActions`) the
 * first thing in the row's actions cell, for a list whose columns are fixed (docs/product.md); on a
 * phone, where a card shows each column as a line, the checkbox always joins the card's actions.
 */
export function useSelectableColumns<T extends { id: number }>(
  columns: DataColumn<T>[],
  options: {
    enabled: boolean;
    selection: RowSelection;
    toggle: (id: number, checked: boolean) => void;
    /** The accessible name of a row's checkbox. */
    rowLabel: (row: T) => string;
    /** The checkbox goes in the actions column instead of a column of its own. */
    inActions?: boolean;
  },
): DataColumn<T>[] {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('sm'), { noSsr: true });
  if (!options.enabled) return columns;
  const checkbox = (row: T) => (
    <Checkbox
      checked={isSelected(options.selection, row.id)}
      onClick={(event) => stopRowClick(event)}
      onKeyDown={(event) => stopRowClick(event)}
      onChange={(event) => options.toggle(row.id, event.target.checked)}
      slotProps={{ input: { 'aria-label': options.rowLabel(row) } }}
    />
  );
  if (narrow || options.inActions) {
    const hasActions = columns.some((column) => column.id === 'actions');
    if (!hasActions)
      return [...columns, { id: 'actions', headerId: 'list.bulk.column', cell: checkbox } as DataColumn<T>];
    return columns.map((column) =>
      column.id === 'actions'
        ? {
            ...column,
            cell: (row: T) => (
              <Box
                sx={{
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: narrow ? 'space-between' : 'flex-end',
                  gap: 1,
                }}
              >
                {checkbox(row)}
                {column.cell(row)}
              </Box>
            ),
          }
        : column,
    );
  }
  return [{ id: 'select', headerId: 'list.bulk.column', cell: checkbox }, ...columns];
}

export type BulkAction = { labelId: string; onClick: () => void };

/**
 * The toolbar above a list with a selection: "select this page", how many are chosen, "select all N
 * matching", the list's actions and "clear". The texts naming the rows come from the list.
 */
export function BulkBar<T extends { id: number }>({
  rows,
  total,
  selection,
  onSelectionChange,
  toolbarLabelId,
  selectedId,
  selectAllId,
  actions,
  pending,
}: {
  /** The page's rows. */
  rows: readonly T[];
  /** How many rows the filters match. */
  total: number;
  selection: RowSelection;
  onSelectionChange: (selection: RowSelection) => void;
  toolbarLabelId: string;
  /** Message id with `{count}`: how many are chosen. */
  selectedId: string;
  /** Message id with `{total}`: choose every matching row. */
  selectAllId: string;
  /** The actions the caller may take. */
  actions: BulkAction[];
  pending: boolean;
}): ReactNode {
  const intl = useIntl();
  const allMatching = 'allMatching' in selection;
  const count = allMatching ? total : selection.ids.size;
  const pageChosen = rows.length > 0 && rows.every((row) => isSelected(selection, row.id));
  return (
    <Box
      role="toolbar"
      aria-label={intl.formatMessage({ id: toolbarLabelId })}
      sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', gap: 1, mb: 1 }}
    >
      <FormControlLabel
        control={
          <Checkbox
            checked={pageChosen}
            indeterminate={!pageChosen && count > 0}
            onChange={(event) =>
              onSelectionChange({ ids: new Set(event.target.checked ? rows.map((row) => row.id) : []) })
            }
          />
        }
        label={intl.formatMessage({ id: 'list.bulk.select_page' })}
      />
      {count > 0 && (
        <>
          <Typography variant="body2" aria-live="polite">
            {intl.formatMessage({ id: selectedId }, { count })}
          </Typography>
          {!allMatching && total > count && (
            <Link component="button" type="button" onClick={() => onSelectionChange({ allMatching: true })}>
              {intl.formatMessage({ id: selectAllId }, { total })}
            </Link>
          )}
          {actions.map((action) => (
            <Button
              key={action.labelId}
              size="small"
              variant="outlined"
              disabled={pending}
              onClick={action.onClick}
            >
              {intl.formatMessage({ id: action.labelId })}
            </Button>
          ))}
          <Button size="small" onClick={() => onSelectionChange(NOTHING_SELECTED)}>
            {intl.formatMessage({ id: 'list.bulk.clear' })}
          </Button>
        </>
      )}
    </Box>
  );
}
