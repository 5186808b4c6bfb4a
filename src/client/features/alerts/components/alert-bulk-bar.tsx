/**
 * Acting on many alerts at once: rows are chosen with their checkboxes (or the whole page), or every
 * alert the filters match; Acknowledge and Resolve then act on each on the server, one by one and each
 * audited, and a toast says how many were done and how many were skipped (already acknowledged or
 * resolved, gone). The buttons follow the abilities; the server checks them again.
 */
import { Box, Button, Checkbox, FormControlLabel, Link, Typography } from '@mui/material';
import { useIntl } from 'react-intl';
import { useAbilities } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import type { Alert } from '#shared/api/index.ts';
import { type AlertAction, type AlertBulkRequest, useBulkAlertAction } from '../api/alerts';

/** The chosen alerts: some ids, or every alert the list's filters match. */
export type AlertSelection = { ids: ReadonlySet<number> } | { allMatching: true };

export const NOTHING_SELECTED: AlertSelection = { ids: new Set() };

export function isSelected(selection: AlertSelection, id: number): boolean {
  return 'allMatching' in selection || selection.ids.has(id);
}

export function AlertBulkBar({
  rows,
  total,
  filter,
  selection,
  onSelectionChange,
}: {
  /** The page's alerts. */
  rows: readonly Alert[];
  /** How many alerts the filters match. */
  total: number;
  filter: NonNullable<AlertBulkRequest['filter']>;
  selection: AlertSelection;
  onSelectionChange: (selection: AlertSelection) => void;
}) {
  const intl = useIntl();
  const abilities = useAbilities();
  const bulk = useBulkAlertAction();
  const allMatching = 'allMatching' in selection;
  const count = allMatching ? total : selection.ids.size;
  const pageChosen = rows.length > 0 && rows.every((row) => isSelected(selection, row.id));

  const act = (action: AlertAction) => {
    const body: AlertBulkRequest = allMatching
      ? { action, filter }
      : { action, ids: [...(selection as { ids: ReadonlySet<number> }).ids] };
    bulk.mutate(body, {
      onSuccess: (result) => {
        toast.success({
          id: 'alerts.bulk.result',
          values: { done: result.done.length, skipped: result.skipped.length },
        });
        onSelectionChange(NOTHING_SELECTED);
      },
    });
  };

  return (
    <Box
      role="toolbar"
      aria-label={intl.formatMessage({ id: 'alerts.bulk.toolbar' })}
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
        label={intl.formatMessage({ id: 'alerts.bulk.select_page' })}
      />
      {count > 0 && (
        <>
          <Typography variant="body2" aria-live="polite">
            {intl.formatMessage({ id: 'alerts.bulk.selected' }, { count })}
          </Typography>
          {!allMatching && total > count && (
            <Link component="button" type="button" onClick={() => onSelectionChange({ allMatching: true })}>
              {intl.formatMessage({ id: 'alerts.bulk.select_all' }, { total })}
            </Link>
          )}
          {abilities.canAcknowledgeAlerts && (
            <Button
              size="small"
              variant="outlined"
              disabled={bulk.isPending}
              onClick={() => act('acknowledge')}
            >
              {intl.formatMessage({ id: 'alerts.bulk.acknowledge' })}
            </Button>
          )}
          {abilities.canResolveAlerts && (
            <Button size="small" variant="outlined" disabled={bulk.isPending} onClick={() => act('resolve')}>
              {intl.formatMessage({ id: 'alerts.bulk.resolve' })}
            </Button>
          )}
          <Button size="small" onClick={() => onSelectionChange(NOTHING_SELECTED)}>
            {intl.formatMessage({ id: 'alerts.bulk.clear' })}
          </Button>
        </>
      )}
    </Box>
  );
}
