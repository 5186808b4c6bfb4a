import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Formik } from 'formik';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import en from '#client/i18n/en.json';
import itCatalogue from '#client/i18n/it.json';
import { certificateUploadSchema } from '#shared/validation/index.ts';
import { PdfDropzone } from './components/pdf-dropzone';
import { forgetListSearch, rememberedListSearch, rememberListSearch } from './list-memory';

afterEach(() => {
  cleanup();
  forgetListSearch();
});

describe('certificate list memory', () => {
  it('remembers the last page and sort for the browser session', () => {
    expect(rememberedListSearch()).toBeNull();
    rememberListSearch({ page: 3, sortBy: 'expiration_date', sortDir: 'desc' });
    expect(rememberedListSearch()).toEqual({ page: 3, sortBy: 'expiration_date', sortDir: 'desc' });
  });

  it('ignores a corrupt stored value', () => {
    sessionStorage.setItem('uvtrace.certificates.list', '{not json');
    expect(rememberedListSearch()).toBeNull();
    sessionStorage.setItem('uvtrace.certificates.list', '[1,2]');
    expect(rememberedListSearch()).toBeNull();
  });
});

function renderDropzone(locale: 'en' | 'it' = 'en') {
  const values = {
    lot_number: '092695',
    validated_treatment_number: '31333',
    expiration_date: '2027-03-31',
    italian_file: null,
  };
  return render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : itCatalogue}>
      <Formik initialValues={values} validationSchema={certificateUploadSchema} onSubmit={() => undefined}>
        <PdfDropzone name="italian_file" labelId="certificates.upload.file" />
      </Formik>
    </IntlProvider>,
  );
}

function drop(file: File) {
  fireEvent.drop(screen.getByTestId('certificate-dropzone'), {
    dataTransfer: {
      files: [file],
      items: [{ kind: 'file', type: file.type, getAsFile: () => file }],
      types: ['Files'],
    },
  });
}

describe('PdfDropzone', () => {
  it('accepts a dropped PDF and shows its name', async () => {
    renderDropzone();
    drop(new File(['%PDF-1.7'], 'certificato.pdf', { type: 'application/pdf' }));
    expect(await screen.findByText(/certificato\.pdf/)).toBeTruthy();
    expect(screen.getByText('PDF only')).toBeTruthy();
  });

  it('keeps a dropped non-PDF so the form explains why it is refused', async () => {
    renderDropzone();
    drop(new File(['hello'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('The certificate file must be a PDF')).toBeTruthy();
  });

  it('says the file is mandatory once removed, in Italian too', async () => {
    renderDropzone('it');
    drop(new File(['%PDF-1.7'], 'certificato.pdf', { type: 'application/pdf' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Rimuovi il file' }));
    await waitFor(() =>
      expect(screen.getByText('il file del certificato in italiano è obbligatorio')).toBeTruthy(),
    );
  });
});
