import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, countryOptions } from './countries';

describe('country options', () => {
  it('lists the 249 ISO 3166-1 alpha-2 codes once', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect(COUNTRY_CODES.every((code) => /^[A-Z]{2}$/.test(code))).toBe(true);
  });

  it('names countries in the current language', () => {
    expect(countryOptions('en').find((option) => option.code === 'DE')?.name).toBe('Germany');
    expect(countryOptions('it').find((option) => option.code === 'DE')?.name).toBe('Germania');
  });

  it('keeps an unknown stored code selectable', () => {
    expect(countryOptions('en', 'XK').some((option) => option.code === 'XK')).toBe(true);
  });
});
