import { describe, expect, it } from 'vitest';
import { parseSearchText, SEARCH_TEXT_MAX_LENGTH } from './list-search';

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
