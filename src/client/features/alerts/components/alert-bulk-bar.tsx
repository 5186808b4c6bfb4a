/**
 * Acknowledge and Resolve on the chosen alerts (components/list/bulk-selection.tsx): the server acts on
 * each, one by one and each audited, and a toast says how many were done and how many were skipped
 * (already acknowledged or resolved, gone). The buttons follow the abilities; the server checks them
 * again.
 */
import { BulkBar, chosenIds, NOTHING_SELECTED, type RowSelection } from '#client/components/list/index.ts';
import { useAbilities } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import type { Alert } from '#shared/api/index.ts';
import { type AlertAction, type AlertBulkRequest, useBulkAlertAction } from '../api/alerts';

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
  selection: RowSelection;
  onSelectionChange: (selection: RowSelection) => void;
}) {
  const abilities = useAbilities();
  const bulk = useBulkAlertAction();

  const act = (action: AlertAction) => {
    const ids = chosenIds(selection);
    bulk.mutate(ids ? { action, ids } : { action, filter }, {
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
    <BulkBar
      rows={rows}
      total={total}
      selection={selection}
      onSelectionChange={onSelectionChange}
      toolbarLabelId="alerts.bulk.toolbar"
      selectedId="alerts.bulk.selected"
      selectAllId="alerts.bulk.select_all"
      pending={bulk.isPending}
      actions={[
        ...(abilities.canAcknowledgeAlerts
          ? [{ labelId: 'alerts.bulk.acknowledge', onClick: () => act('acknowledge') }]
          : []),
        ...(abilities.canResolveAlerts
          ? [{ labelId: 'alerts.bulk.resolve', onClick: () => act('resolve') }]
          : []),
      ]}
    />
  );
}
