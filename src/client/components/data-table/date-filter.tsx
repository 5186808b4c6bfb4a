/**
 * A list filter day (MUI X DatePicker, date-fns): the value travels as YYYY-MM-DD (the URL and API
 * format), the calendar follows the current language and weeks start on Monday.
 */
import { LocalizationProvider } from '@mui/x-date-pickers';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker } from '@mui/x-date-pickers/DatePicker';
import { itIT } from '@mui/x-date-pickers/locales';
import { format, isValid, parseISO } from 'date-fns';
import { enUS, it } from 'date-fns/locale';
import { type ReactNode, useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useLocale } from '../../lib/intl';

const enMonday = { ...enUS, options: { ...enUS.options, weekStartsOn: 1 as const } };

const PICKER_LOCALES = {
  en: { adapterLocale: enMonday, localeText: undefined, format: 'yyyy-MM-dd' },
  it: {
    adapterLocale: it,
    localeText: itIT.components.MuiLocalizationProvider.defaultProps.localeText,
    format: 'dd/MM/yyyy',
  },
} as const;

/** Date pickers inside get the current language and a Monday week start. */
export function DateLocalization({ children }: { children: ReactNode }) {
  const locale = useLocale();
  const config = PICKER_LOCALES[locale];
  return (
    <LocalizationProvider
      dateAdapter={AdapterDateFns}
      adapterLocale={config.adapterLocale}
      localeText={config.localeText}
    >
      {children}
    </LocalizationProvider>
  );
}

/**
 * Popper props naming the calendar dialog after its field. MUI X labels the desktop calendar with
 * the id of a toolbar that the desktop layout does not render, which leaves the dialog nameless.
 */
export function calendarName(label: string): { 'aria-label': string } {
  return { 'aria-label': label };
}

/** The day of a YYYY-MM-DD value (local midnight), or null. */
export function dayFromIso(value: string | undefined): Date | null {
  if (!value) return null;
  const date = parseISO(value);
  return isValid(date) ? date : null;
}

export function isoFromDay(date: Date | null): string | undefined {
  return date && isValid(date) ? format(date, 'yyyy-MM-dd') : undefined;
}

/**
 * A day filter: shows `value` (YYYY-MM-DD) and reports a valid day, or undefined when cleared. A day
 * picked in the calendar is reported at once; a typed one when the field is left or with Enter, so a
 * refetch does not interrupt the typing.
 */
export function DateFilter({
  labelId,
  value,
  onChange,
  name,
}: {
  labelId: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  name: string;
}) {
  const intl = useIntl();
  const locale = useLocale();
  const label = intl.formatMessage({ id: labelId });
  const [draft, setDraft] = useState<Date | null>(() => dayFromIso(value));
  // The URL changed (reset, back button, a link): show it.
  useEffect(() => setDraft(dayFromIso(value)), [value]);

  const commit = (date: Date | null) => {
    if (date === null) {
      if (value !== undefined) onChange(undefined);
    } else if (isValid(date)) {
      const next = isoFromDay(date);
      if (next !== value) onChange(next);
    }
  };

  return (
    <DateLocalization>
      <DatePicker
        label={label}
        value={draft}
        format={PICKER_LOCALES[locale].format}
        onChange={(date) => setDraft(date)}
        onAccept={commit}
        slotProps={{
          textField: {
            size: 'small',
            name,
            sx: { width: 190 },
            onBlur: () => commit(draft),
            onKeyDown: (event) => {
              if (event.key === 'Enter') commit(draft);
            },
          },
          field: { clearable: true, onClear: () => commit(null) },
          popper: calendarName(label),
        }}
      />
    </DateLocalization>
  );
}

type DayRange = readonly [from: string | undefined, to: string | undefined];

/** A from/to pair of day filters; a change of either reports both days. */
export function DateRangeFilter({
  names,
  labelIds,
  value,
  onChange,
}: {
  names: readonly [string, string];
  labelIds: readonly [string, string];
  value: DayRange;
  onChange: (range: DayRange) => void;
}) {
  const [from, to] = value;
  return (
    <>
      <DateFilter
        name={names[0]}
        labelId={labelIds[0]}
        value={from}
        onChange={(day) => onChange([day, to])}
      />
      <DateFilter
        name={names[1]}
        labelId={labelIds[1]}
        value={to}
        onChange={(day) => onChange([from, day])}
      />
    </>
  );
}
