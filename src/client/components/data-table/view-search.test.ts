import { describe, expect, it } from 'vitest';
import { searchToSave, viewSearch } from './view-search';

describe('saved view search', () => {
  it('keeps the search as written, without "?" and without the page', () => {
    expect(viewSearch('?page=3&lotStatus=flagged&sortDir=asc')).toBe('lotStatus=flagged&sortDir=asc');
    expect(viewSearch('?perPage=50&pageant=1&page=2')).toBe('perPage=50&pageant=1');
    expect(viewSearch('')).toBe('');
    expect(viewSearch('?page=1')).toBe('');
  });

  it('adds the kept columns on screen when the URL names none', () => {
    expect(searchToSave('from=2026-01-01', 'received_ts,notes')).toBe(
      'from=2026-01-01&columns=received_ts%2Cnotes',
    );
    expect(searchToSave('', 'notes')).toBe('columns=notes');
    expect(searchToSave('columns=a&x=1', 'notes')).toBe('columns=a&x=1');
    expect(searchToSave('x=1', undefined)).toBe('x=1');
  });
});
