import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { IntlProvider } from 'react-intl';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '#client/i18n/en.json';
import { TEXT_FILTER_DELAY_MS, TextFilter } from './text-filter';

function renderFilter(value: string | undefined, onChange: (value: string | undefined) => void) {
  const tree = (current: string | undefined) => (
    <IntlProvider locale="en" messages={en}>
      <TextFilter name="actor" labelId="audit.filter.actor" value={current} onChange={onChange} />
    </IntlProvider>
  );
  const view = render(tree(value));
  return {
    field: screen.getByLabelText('User (id or email)'),
    rerender: (next?: string) => view.rerender(tree(next)),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('TextFilter', () => {
  it('applies the trimmed text once the typing pauses, and keeps what is typed', () => {
    const onChange = vi.fn();
    const { field, rerender } = renderFilter(undefined, onChange);
    fireEvent.change(field, { target: { value: 'ada' } });
    fireEvent.change(field, { target: { value: 'ada ' } });
    act(() => vi.advanceTimersByTime(TEXT_FILTER_DELAY_MS - 1));
    expect(onChange).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(onChange).toHaveBeenCalledWith('ada');
    // The URL now holds "ada": the trailing space being typed stays.
    rerender('ada');
    expect((field as HTMLInputElement).value).toBe('ada ');
  });

  it('applies at once with Enter and shows a value changed elsewhere (Reset)', () => {
    const onChange = vi.fn();
    const { field, rerender } = renderFilter('bob', onChange);
    fireEvent.change(field, { target: { value: 'carl' } });
    fireEvent.keyDown(field, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith('carl');
    act(() => vi.advanceTimersByTime(TEXT_FILTER_DELAY_MS));
    expect(onChange).toHaveBeenCalledTimes(1);
    rerender(undefined);
    expect((field as HTMLInputElement).value).toBe('');
  });
});
