import { describe, expect, it } from 'vitest';
import { applyColumnChoice, choiceOrDefault, defaultColumnIds } from './column-choice';
import { parseColumns } from './list-search';

const COLUMNS = [
  { id: 'select' },
  { id: 'date' },
  { id: 'device' },
  { id: 'energy', optional: true },
  { id: 'notes', optional: true },
  { id: 'actions' },
];
const ids = (columns: { id: string }[]) => columns.map((column) => column.id);

describe('column choice', () => {
  it('shows the default columns without a choice, or with none the list knows', () => {
    expect(ids(applyColumnChoice(COLUMNS, undefined))).toEqual(['select', 'date', 'device', 'actions']);
    expect(ids(applyColumnChoice(COLUMNS, ['unknown', 'actions', 'select']))).toEqual([
      'select',
      'date',
      'device',
      'actions',
    ]);
    expect(defaultColumnIds(COLUMNS)).toEqual(['date', 'device']);
  });

  it('shows the chosen columns in their order, drops unknown ids and keeps the checkbox first, the actions last', () => {
    expect(ids(applyColumnChoice(COLUMNS, ['notes', 'gone', 'date', 'notes']))).toEqual([
      'select',
      'notes',
      'date',
      'actions',
    ]);
  });

  it('keeps no choice that is the default', () => {
    expect(choiceOrDefault(COLUMNS, ['date', 'device'])).toBeUndefined();
    expect(choiceOrDefault(COLUMNS, [])).toBeUndefined();
    expect(choiceOrDefault(COLUMNS, ['device', 'date'])).toEqual(['device', 'date']);
  });

  it('reads the URL param leniently: malformed ids dropped, repeats once', () => {
    expect(parseColumns('date,energy')).toBe('date,energy');
    expect(parseColumns('date,,Bad Id,date, notes ')).toBe('date,notes');
    expect(parseColumns(['date', 7])).toBe('date');
    expect(parseColumns('')).toBeUndefined();
    expect(parseColumns(12)).toBeUndefined();
    expect(parseColumns(Array.from({ length: 50 }, (_, i) => `c${i}`).join(','))?.split(',')).toHaveLength(
      40,
    );
  });
});
