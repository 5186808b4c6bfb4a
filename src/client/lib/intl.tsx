/**
 * react-intl wiring: locale en (default) or it, the user's choice persisted in localStorage and
 * mirrored on <html lang>. Catalogues are namespaced message ids (src/client/i18n/*.json).
 *
 * Each catalogue is its own chunk and only the one in use is loaded: the page loads the stored
 * locale's before it first renders (loadCatalog in main.tsx), and a switch of language takes effect
 * once the other one has arrived, so no text ever shows as a bare message id.
 */
import { type ReactNode, useEffect, useSyncExternalStore } from 'react';
import { IntlProvider, type IntlShape } from 'react-intl';

export const LOCALES = ['en', 'it'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

type Catalog = Record<string, string>;

const catalogLoaders: Record<Locale, () => Promise<{ default: Catalog }>> = {
  en: () => import('../i18n/en.json'),
  it: () => import('../i18n/it.json'),
};
const loadedCatalogs: Partial<Record<Locale, Catalog>> = {};

/** Loads a locale's catalogue (once); AppIntlProvider needs the current locale's loaded. */
export async function loadCatalog(locale: Locale): Promise<void> {
  loadedCatalogs[locale] ??= (await catalogLoaders[locale]()).default;
}

const STORAGE_KEY = 'uvtrace.locale';

const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

function readLocale(): Locale {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY);
    return isLocale(stored) ? stored : DEFAULT_LOCALE;
  } catch {
    return DEFAULT_LOCALE;
  }
}

let currentLocale: Locale = readLocale();
const listeners = new Set<() => void>();

export function getLocale(): Locale {
  return currentLocale;
}

export async function setLocale(locale: Locale): Promise<void> {
  if (locale === currentLocale) return;
  await loadCatalog(locale);
  currentLocale = locale;
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // not persisted: the choice lasts for this page only
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLocale(): Locale {
  return useSyncExternalStore(subscribe, getLocale, getLocale);
}

function onIntlError(error: { code?: string; message: string }) {
  // Missing ids are caught by src/client/i18n/messages.test.ts; keep the console quiet in production.
  if (import.meta.env.DEV) console.warn(error.message);
}

export function AppIntlProvider({ children }: { children: ReactNode }) {
  const locale = useLocale();
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  return (
    <IntlProvider
      locale={locale}
      defaultLocale={DEFAULT_LOCALE}
      messages={loadedCatalogs[locale]}
      onError={onIntlError}
    >
      {children}
    </IntlProvider>
  );
}

/** Translates `id` when the catalogue has it, else returns null (for ids that come from the server). */
export function translateKnown(intl: IntlShape, id: string): string | null {
  return Object.hasOwn(intl.messages, id) ? intl.formatMessage({ id }) : null;
}

/**
 * Translates a server message: the id itself (e.g. "validation.user.email.taken") or `errors.<message>`
 * (e.g. "session_expired" → errors.session_expired); null when unknown.
 */
export function translateServerMessage(intl: IntlShape, message: string): string | null {
  if (!message) return null;
  return translateKnown(intl, message) ?? translateKnown(intl, `errors.${message}`);
}

/** A validation message id from yup or the server, with the generic fallback of docs/product.md §5. */
export function translateValidation(intl: IntlShape, id: string): string {
  return translateKnown(intl, id) ?? intl.formatMessage({ id: 'validation.generic' });
}
