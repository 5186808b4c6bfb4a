import { cleanup, render } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../i18n/en.json';
import itCatalogue from '../i18n/it.json';
import { ApiError } from './api-client';
import { errorTitle, type TitleDescriptor, useDocumentTitle } from './document-title';

function Titled({ title }: { title: TitleDescriptor }) {
  useDocumentTitle(title);
  return null;
}

const catalogues = { en, it: itCatalogue };

function renderIn(locale: 'en' | 'it', title: TitleDescriptor) {
  return (
    <IntlProvider locale={locale} messages={catalogues[locale]}>
      <Titled title={title} />
    </IntlProvider>
  );
}

afterEach(cleanup);

describe('useDocumentTitle', () => {
  it('names the tab in the current language, with the entity once it is known', () => {
    const view = render(renderIn('en', { id: 'titles.customer_loading' }));
    expect(document.title).toBe('Customer · uvtrace');

    view.rerender(renderIn('en', { id: 'titles.customer', values: { name: 'Clinica San Marco' } }));
    expect(document.title).toBe('Customer: Clinica San Marco · uvtrace');

    view.rerender(renderIn('it', { id: 'titles.customer', values: { name: 'Clinica San Marco' } }));
    expect(document.title).toBe('Cliente: Clinica San Marco · uvtrace');
  });

  it('gives the tab back to the app name when the screen goes', () => {
    const view = render(renderIn('en', { id: 'titles.sterilizations' }));
    expect(document.title).toBe('Sterilizations · uvtrace');
    view.unmount();
    expect(document.title).toBe('uvtrace');
  });
});

describe('errorTitle', () => {
  it('says "not found" for a 404 only', () => {
    expect(errorTitle(new ApiError(404, 'not_found'))).toEqual({ id: 'titles.not_found' });
    expect(errorTitle(new ApiError(500, 'server_error'))).toEqual({ id: 'titles.error' });
    expect(errorTitle(new TypeError('Failed to fetch'))).toEqual({ id: 'titles.error' });
  });
});
