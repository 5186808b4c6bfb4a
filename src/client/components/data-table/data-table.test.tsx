import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '#client/i18n/en.json';
import { type DataColumn, DataTable } from './data-table';
import { parseIsoDate, parseListSearch, parsePage } from './list-search';

type Row = { id: number; name: string };

const columns: DataColumn<Row>[] = [
  { id: 'name', headerId: 'fields.name', cell: (row) => row.name, sortKey: 'name' },
  { id: 'email', headerId: 'fields.email', cell: () => 'x@example.com' },
];

const rows: Row[] = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Bob' },
];

function renderTable(props: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  return render(
    <IntlProvider locale="en" messages={en}>
      <DataTable<Row>
        labelId="layout.menu.users"
        columns={columns}
        rows={rows}
        getRowId={(row) => row.id}
        emptyMessageId="errors.not_found"
        {...props}
      />
    </IntlProvider>,
  );
}

afterEach(cleanup);

describe('DataTable', () => {
  it('renders rows and opens a row on click', () => {
    const onRowClick = vi.fn();
    renderTable({ onRowClick });
    fireEvent.click(screen.getByRole('cell', { name: 'Bob' }));
    expect(onRowClick).toHaveBeenCalledWith(rows[1]);
  });

  it('shows the empty message', () => {
    renderTable({ rows: [] });
    expect(screen.getByText('Not found')).toBeTruthy();
  });

  it('shows a spinner while the first page loads, and the empty message without rows', () => {
    renderTable({ rows: undefined, isFetching: true });
    expect(screen.queryByText('Not found')).toBeNull();
    expect(screen.getAllByRole('progressbar').length).toBeGreaterThan(0);
    cleanup();
    renderTable({ rows: undefined, isFetching: false });
    expect(screen.getByText('Not found')).toBeTruthy();
    expect(screen.queryAllByRole('progressbar')).toHaveLength(0);
  });

  it('tells a failed load from an empty list and retries it', () => {
    const onRetry = vi.fn();
    renderTable({ rows: undefined, loadFailed: true, onRetry });
    expect(screen.queryByText('Not found')).toBeNull();
    expect(screen.getByRole('alert').textContent).toContain('This list could not be loaded.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
    cleanup();
    // The retry running: its spinner, not the failure.
    renderTable({ rows: undefined, loadFailed: true, isFetching: true, onRetry });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('hides the paginators when total ≤ per_page and shows two otherwise', () => {
    renderTable({ total: 2, perPage: 20, page: 1 });
    expect(screen.queryAllByRole('navigation')).toHaveLength(0);
    cleanup();
    const onPageChange = vi.fn();
    renderTable({ total: 41, perPage: 20, page: 1, onPageChange });
    const navs = screen.getAllByRole('navigation');
    expect(navs).toHaveLength(2);
    fireEvent.click(within(navs[1] as HTMLElement).getByRole('button', { name: 'Go to page 3' }));
    expect(onPageChange).toHaveBeenCalledWith(3);
  });

  it('flips the direction of the active sort column', () => {
    const onSortChange = vi.fn();
    renderTable({ sortBy: 'name', sortDir: 'asc', onSortChange });
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    expect(onSortChange).toHaveBeenCalledWith('name', 'desc');
  });

  it('keeps the focused control of a cell when the columns are rebuilt', () => {
    // Pages rebuild their columns when a cell's state changes (e.g. a details toggle).
    const withToggle = (label: string): DataColumn<Row>[] => [
      {
        id: 'toggle',
        headerId: 'fields.name',
        cell: (row) => <button type="button">{`${label} ${row.name}`}</button>,
      },
    ];
    const table = (label: string) => (
      <IntlProvider locale="en" messages={en}>
        <DataTable<Row>
          labelId="layout.menu.users"
          columns={withToggle(label)}
          rows={rows}
          getRowId={(row) => row.id}
          emptyMessageId="errors.not_found"
        />
      </IntlProvider>
    );
    const { rerender } = render(table('Show'));
    const toggle = screen.getByRole('button', { name: 'Show Ada' });
    toggle.focus();
    rerender(table('Hide'));
    expect(screen.getByRole('button', { name: 'Hide Ada' })).toBe(toggle);
    expect(document.activeElement).toBe(toggle);
  });
});

describe('DataTable on a narrow screen', () => {
  // Every media query matches: the `sm`-down query of the card layout included.
  beforeEach(() => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: true,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
    }));
  });
  afterEach(() => vi.unstubAllGlobals());

  const withActions: DataColumn<Row>[] = [
    ...columns,
    {
      id: 'actions',
      headerId: 'fields.name',
      cell: (row) => <button type="button">{`Open ${row.name}`}</button>,
    },
  ];

  it('shows each row as a card of labelled values from the same columns, actions in its footer', () => {
    const onRowClick = vi.fn();
    renderTable({ columns: withActions, onRowClick });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(screen.getByRole('list', { name: 'Users' })).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const second = within(cards[1] as HTMLElement);
    // The first column is the title; the others are term/definition pairs; actions are no pair.
    expect(second.getByText('Bob')).toBeTruthy();
    expect(second.getAllByRole('term').map((term) => term.textContent)).toEqual(['Email']);
    expect(second.getByRole('definition').textContent).toBe('x@example.com');
    fireEvent.click(second.getByRole('button', { name: 'Open Bob' }));
    fireEvent.click(cards[0] as HTMLElement);
    expect(onRowClick).toHaveBeenLastCalledWith(rows[0]);
  });

  it('sorts with a select instead of the headers', () => {
    const onSortChange = vi.fn();
    renderTable({ sortBy: 'name', sortDir: 'asc', onSortChange });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Sort by' }));
    fireEvent.click(screen.getByRole('option', { name: 'Name, descending' }));
    expect(onSortChange).toHaveBeenCalledWith('name', 'desc');
  });

  it('shows a failed load the same way', () => {
    renderTable({ rows: undefined, loadFailed: true, onRetry: () => {} });
    expect(screen.getByRole('alert').textContent).toContain('This list could not be loaded.');
  });
});

describe('list search parsing', () => {
  it('falls back to defaults on malformed values', () => {
    expect(
      parseListSearch({ page: '-3', sortBy: 'drop table', sortDir: 'up' }, ['name', 'active'], {
        sortBy: 'name',
        sortDir: 'asc',
      }),
    ).toEqual({ page: 1, sortBy: 'name', sortDir: 'asc' });
    expect(parsePage('4')).toBe(4);
    expect(parsePage(2.5)).toBe(1);
  });

  it('accepts only real days', () => {
    expect(parseIsoDate('2024-02-29')).toBe('2024-02-29');
    expect(parseIsoDate('2023-02-29')).toBeUndefined();
    expect(parseIsoDate('yesterday')).toBeUndefined();
  });
});
