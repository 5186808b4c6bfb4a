/**
 * A list's Columns button (docs/lists.md "Columns"): a dialog to show or hide each column and move it up
 * or down, all with the keyboard (checkboxes and buttons in the tab order). Applying puts the choice in
 * the URL (`columns=`) and keeps it for the user on the server, so it follows them to another browser.
 */
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import ViewColumn from '@mui/icons-material/ViewColumn';
import {
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  IconButton,
  List,
  ListItem,
} from '@mui/material';
import { useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { choiceOrDefault, choosableColumns } from './column-choice';

type Column = { id: string; headerId: string; optional?: boolean };
type Draft = Array<{ id: string; headerId: string; shown: boolean }>;

/** The dialog's rows: the shown columns in their order, then the hidden ones in the list's order. */
function draftOf(columns: ReadonlyArray<Column>, shown: readonly string[]): Draft {
  const choosable = choosableColumns(columns);
  const visible = shown.flatMap((id) => choosable.filter((column) => column.id === id));
  const hidden = choosable.filter((column) => !shown.includes(column.id));
  return [
    ...visible.map((column) => ({ id: column.id, headerId: column.headerId, shown: true })),
    ...hidden.map((column) => ({ id: column.id, headerId: column.headerId, shown: false })),
  ];
}

export function ColumnsMenu({
  columns,
  shown,
  onChange,
}: {
  /** Every column of the list, as it defines them. */
  columns: ReadonlyArray<Column>;
  /** The ids shown now, in order (without the actions). */
  shown: readonly string[];
  /** A new choice: ids in order, or undefined for the list's default columns. */
  onChange: (choice: string[] | undefined) => void;
}) {
  const intl = useIntl();
  const [draft, setDraft] = useState<Draft | null>(null);
  const titleId = useId();
  const label = (headerId: string) => intl.formatMessage({ id: headerId });

  const move = (index: number, by: -1 | 1) =>
    setDraft((previous) => {
      if (!previous) return previous;
      const next = [...previous];
      const [row] = next.splice(index, 1);
      if (row) next.splice(index + by, 0, row);
      return next;
    });
  const apply = () => {
    if (!draft) return;
    onChange(
      choiceOrDefault(
        columns,
        draft.filter((row) => row.shown).map((row) => row.id),
      ),
    );
    setDraft(null);
  };
  const rows = draft ?? [];
  const someShown = rows.some((row) => row.shown);

  return (
    <>
      <Button
        startIcon={<ViewColumn />}
        aria-haspopup="dialog"
        onClick={() => setDraft(draftOf(columns, shown))}
      >
        {intl.formatMessage({ id: 'list.columns.button' })}
      </Button>
      <Dialog
        open={draft !== null}
        onClose={() => setDraft(null)}
        aria-labelledby={titleId}
        fullWidth
        maxWidth="xs"
      >
        <DialogTitle id={titleId}>{intl.formatMessage({ id: 'list.columns.title' })}</DialogTitle>
        <DialogContent dividers sx={{ px: 1 }}>
          <List dense aria-label={intl.formatMessage({ id: 'list.columns.title' })}>
            {rows.map((row, index) => (
              <ListItem
                key={row.id}
                data-column={row.id}
                disableGutters
                secondaryAction={
                  <Box sx={{ display: 'flex' }}>
                    <IconButton
                      size="small"
                      disabled={index === 0}
                      aria-label={intl.formatMessage(
                        { id: 'list.columns.up' },
                        { column: label(row.headerId) },
                      )}
                      onClick={() => move(index, -1)}
                    >
                      <ArrowUpward fontSize="small" />
                    </IconButton>
                    <IconButton
                      size="small"
                      disabled={index === rows.length - 1}
                      aria-label={intl.formatMessage(
                        { id: 'list.columns.down' },
                        { column: label(row.headerId) },
                      )}
                      onClick={() => move(index, 1)}
                    >
                      <ArrowDownward fontSize="small" />
                    </IconButton>
                  </Box>
                }
                sx={{ pl: 1, pr: 11 }}
              >
                <FormControlLabel
                  control={
                    <Checkbox
                      size="small"
                      checked={row.shown}
                      onChange={(event) =>
                        setDraft((previous) =>
                          previous === null
                            ? previous
                            : previous.map((item) =>
                                item.id === row.id ? { ...item, shown: event.target.checked } : item,
                              ),
                        )
                      }
                    />
                  }
                  label={label(row.headerId)}
                  sx={{ minWidth: 0, '& .MuiFormControlLabel-label': { overflowWrap: 'anywhere' } }}
                />
              </ListItem>
            ))}
          </List>
        </DialogContent>
        <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
          <Button
            onClick={() => {
              onChange(undefined);
              setDraft(null);
            }}
            sx={{ mr: 'auto' }}
          >
            {intl.formatMessage({ id: 'list.columns.default' })}
          </Button>
          <Button onClick={() => setDraft(null)}>{intl.formatMessage({ id: 'common.cancel' })}</Button>
          <Button variant="contained" disabled={!someShown} onClick={apply}>
            {intl.formatMessage({ id: 'list.columns.apply' })}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
