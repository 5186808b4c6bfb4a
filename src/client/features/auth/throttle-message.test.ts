import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import en from '#client/i18n/en.json';
import it_ from '#client/i18n/it.json';
import { loginThrottledMessage } from './throttle-message';

const text = (messages: Record<string, string>, locale: string, data: unknown) => {
  const ref = loginThrottledMessage(data);
  if (!ref) return null;
  return createIntl({ locale, messages }).formatMessage({ id: ref.id }, ref.values);
};

describe('loginThrottledMessage', () => {
  it('says the wait the server gave, in seconds', () => {
    expect(text(en, 'en', { retry_after_seconds: 1 })).toBe('Too many attempts. Try again in 1 second.');
    expect(text(en, 'en', { retry_after_seconds: 8 })).toBe('Too many attempts. Try again in 8 seconds.');
    expect(text(it_, 'it', { retry_after_seconds: 1 })).toBe('Troppi tentativi. Riprova tra 1 secondo.');
    expect(text(it_, 'it', { retry_after_seconds: 64 })).toBe('Troppi tentativi. Riprova tra 64 secondi.');
  });

  it('says minutes, rounded up, for long waits', () => {
    expect(text(en, 'en', { retry_after_seconds: 120 })).toBe('Too many attempts. Try again in 120 seconds.');
    expect(text(en, 'en', { retry_after_seconds: 121 })).toBe('Too many attempts. Try again in 3 minutes.');
    expect(text(en, 'en', { retry_after_seconds: 900 })).toBe('Too many attempts. Try again in 15 minutes.');
    expect(text(it_, 'it', { retry_after_seconds: 900 })).toBe('Troppi tentativi. Riprova tra 15 minuti.');
  });

  it('is null when the answer carries no usable wait', () => {
    for (const data of [null, undefined, {}, { retry_after_seconds: '5' }, { retry_after_seconds: -1 }])
      expect(loginThrottledMessage(data)).toBeNull();
  });
});
