import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, describe, expect, it, vi } from 'vitest';
import en from '#client/i18n/en.json';
import itCatalogue from '#client/i18n/it.json';
import { ColumnsMenu } from './columns-menu';

const COLUMNS = [
  { id: 'received_ts', headerId: 'sterilizations.list.date' },
  { id: 'customer', headerId: 'sterilizations.list.customer' },
  { id: 'supplied_energy', headerId: 'sterilizations.details.supplied_energy', optional: true },
  { id: 'notes', headerId: 'sterilizations.details.notes', optional: true },
  { id: 'actions', headerId: 'sterilizations.list.actions' },
];

function open(shown: string[], locale: 'en' | 'it' = 'en') {
  const onChange = vi.fn();
  render(
    <IntlProvider locale={locale} messages={locale === 'en' ? en : itCatalogue}>
      <ColumnsMenu columns={COLUMNS} shown={shown} onChange={onChange} />
    </IntlProvider>,
  );
  fireEvent.click(screen.getByRole('button', { name: locale === 'en' ? 'Columns' : 'Colonne' }));
  return { onChange, dialog: screen.getByRole('dialog') };
}

const disabled = (element: HTMLElement) => (element as HTMLButtonElement).disabled;

afterEach(cleanup);

describe('ColumnsMenu', () => {
  it('lists the shown columns first, then the hidden ones, never the actions', () => {
    const { dialog } = open(['customer', 'received_ts']);
    const boxes = within(dialog).getAllByRole('checkbox');
    expect(boxes.map((box) => box.closest('li')?.getAttribute('data-column'))).toEqual([
      'customer',
      'received_ts',
      'supplied_energy',
      'notes',
    ]);
    expect(boxes.map((box) => (box as HTMLInputElement).checked)).toEqual([true, true, false, false]);
  });

  it('shows, hides and moves columns, and applies them in their order', () => {
    const { dialog, onChange } = open(['received_ts', 'customer']);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Notes' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Customer' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move Notes up' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move Notes up' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Move Notes up' }));
    // The first row cannot go further up, the last further down.
    expect(disabled(within(dialog).getByRole('button', { name: 'Move Notes up' }))).toBe(true);
    expect(disabled(within(dialog).getByRole('button', { name: 'Move UV dose down' }))).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenCalledWith(['notes', 'received_ts']);
  });

  it('applies the default columns as no choice', () => {
    const { dialog, onChange } = open(['received_ts', 'customer']);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });

  it('refuses to hide every column', () => {
    const { dialog, onChange } = open(['received_ts', 'customer']);
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Date' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Customer' }));
    expect(disabled(within(dialog).getByRole('button', { name: 'Apply' }))).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Default columns' }));
    expect(onChange).toHaveBeenLastCalledWith(undefined);
  });

  it('speaks Italian', () => {
    const { dialog } = open(['received_ts'], 'it');
    expect(within(dialog).getByRole('heading', { name: 'Scegli le colonne' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Sposta Data in giù' })).toBeTruthy();
    expect(within(dialog).getByRole('button', { name: 'Colonne predefinite' })).toBeTruthy();
  });
});
