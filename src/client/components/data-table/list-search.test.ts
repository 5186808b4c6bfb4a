import { describe, expect, it } from 'vitest';
import {
  PAGE_SIZES,
  parseListSearch,
  parsePerPage,
  parseSearchText,
  perPagePatch,
  SEARCH_TEXT_MAX_LENGTH,
  withoutColumns,
} from './list-search';

describe('parseSearchText', () => {
  it('keeps the text trimmed and drops a blank or malformed one', () => {
    expect(parseSearchText('  Rossi  ')).toBe('Rossi');
    expect(parseSearchText('100% a_b\\c')).toBe('100% a_b\\c');
    expect(parseSearchText(2024)).toBe('2024');
    expect(parseSearchText('   ')).toBeUndefined();
    expect(parseSearchText(undefined)).toBeUndefined();
    expect(parseSearchText({ q: 'x' })).toBeUndefined();
  });

  it('cuts a longer text to what the API accepts, counting characters', () => {
    const cut = parseSearchText('😀'.repeat(SEARCH_TEXT_MAX_LENGTH + 5));
    expect(Array.from(cut ?? '')).toHaveLength(SEARCH_TEXT_MAX_LENGTH);
    expect(cut).toBe('😀'.repeat(SEARCH_TEXT_MAX_LENGTH));
  });
});

describe('page size in the URL', () => {
  it('keeps 50 and 100, drops the default and anything else', () => {
    expect(parsePerPage(50)).toBe(50);
    expect(parsePerPage('100')).toBe(100);
    for (const value of [20, '20', 10, 101, '5O', null, undefined, 2.5])
      expect(parsePerPage(value)).toBeUndefined();
    expect(parseListSearch({ perPage: '50' }, ['name'], { sortBy: 'name', sortDir: 'asc' })).toEqual({
      page: 1,
      perPage: 50,
      sortBy: 'name',
      sortDir: 'asc',
    });
    expect(
      parseListSearch({ perPage: '20' }, ['name'], { sortBy: 'name', sortDir: 'asc' }),
    ).not.toHaveProperty('perPage');
  });

  it('goes back to page 1 on a new size, and the default size leaves the URL', () => {
    expect(perPagePatch(100)).toEqual({ perPage: 100, page: 1 });
    expect(perPagePatch(PAGE_SIZES[0])).toEqual({ perPage: undefined, page: 1 });
  });
});

describe('columns in the URL', () => {
  it('keeps well-formed ids in order, and sets the key even when there are none', () => {
    expect(
      parseListSearch({ columns: 'notes,received_ts' }, ['name'], { sortBy: 'name', sortDir: 'asc' }).columns,
    ).toBe('notes,received_ts');
    const none = parseListSearch({ columns: 5 }, ['name'], { sortBy: 'name', sortDir: 'asc' });
    expect(none).toHaveProperty('columns');
    expect(none.columns).toBeUndefined();
  });

  it('never hands the columns to the API', () => {
    expect(withoutColumns({ page: 2, sortBy: 'name', columns: 'a,b' })).toEqual({ page: 2, sortBy: 'name' });
    expect(withoutColumns({ page: 2 })).toEqual({ page: 2 });
  });
});
