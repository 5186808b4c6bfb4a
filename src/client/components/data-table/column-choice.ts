/**
 * Which columns a list shows, in which order (docs/lists.md "Columns"): the URL's `columns`, else the
 * user's kept choice for the list, else the list's default columns (those not marked `optional`). Ids the
 * list does not know are dropped; a row's checkbox (`select`) and its actions are never chosen: they
 * always come first and last.
 */
import { ACTIONS_COLUMN_ID } from './data-cards';

/** The column id of a row's checkbox (lists whose rows can be chosen and acted on). */
export const SELECT_COLUMN_ID = 'select';

const isFixed = (column: { id: string }) => column.id === ACTIONS_COLUMN_ID || column.id === SELECT_COLUMN_ID;

/** What a list's column needs to be chosen: its id and whether it is shown by default. */
export type ChoosableColumn = { id: string; optional?: boolean };

/** The ids of the columns a list shows without a choice. */
export function defaultColumnIds(columns: ReadonlyArray<ChoosableColumn>): string[] {
  return columns.filter((column) => !isFixed(column) && !column.optional).map((column) => column.id);
}

/** The columns one may choose among: all but the checkbox and the actions. */
export function choosableColumns<C extends ChoosableColumn>(columns: ReadonlyArray<C>): C[] {
  return columns.filter((column) => !isFixed(column));
}

/**
 * The columns to show for a choice (ids in order, e.g. from `columns=a,b`): the known ones in that order
 * after the checkbox and before the actions; without a choice, or with none the list knows, the default
 * columns.
 */
export function applyColumnChoice<C extends ChoosableColumn>(
  columns: ReadonlyArray<C>,
  choice: readonly string[] | undefined,
): C[] {
  const select = columns.filter((column) => column.id === SELECT_COLUMN_ID);
  const actions = columns.filter((column) => column.id === ACTIONS_COLUMN_ID);
  const byId = new Map(choosableColumns(columns).map((column) => [column.id, column]));
  const chosen = [...new Set(choice ?? [])].flatMap((id) => {
    const column = byId.get(id);
    return column ? [column] : [];
  });
  if (chosen.length === 0) {
    return columns.filter((column) => isFixed(column) || !column.optional);
  }
  return [...select, ...chosen, ...actions];
}

/** A choice as the URL and the server keep it: undefined when it is the list's default. */
export function choiceOrDefault(
  columns: ReadonlyArray<ChoosableColumn>,
  ids: readonly string[],
): string[] | undefined {
  const defaults = defaultColumnIds(columns);
  const same = ids.length === defaults.length && ids.every((id, index) => id === defaults[index]);
  return same || ids.length === 0 ? undefined : [...ids];
}
