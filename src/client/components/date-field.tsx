/**
 * The app's one date picker (MUI X DatePicker, date-fns): the day reads and is typed as
 * lib/dates' DAY_FORMAT in every language, the calendar follows the language and weeks start on
 * Monday. List filters and form fields wrap it.
 */
import { LocalizationProvider } from '@mui/x-date-pickers';
import { AdapterDateFns } from '@mui/x-date-pickers/AdapterDateFns';
import { DatePicker, type DatePickerProps } from '@mui/x-date-pickers/DatePicker';
import { itIT } from '@mui/x-date-pickers/locales';
import type { FieldRef } from '@mui/x-date-pickers/models';
import { enUS, it } from 'date-fns/locale';
import { type ReactNode, useRef } from 'react';
import { DAY_FORMAT } from '../lib/dates';
import { useLocale } from '../lib/intl';

const enMonday = { ...enUS, options: { ...enUS.options, weekStartsOn: 1 as const } };

const PICKER_LOCALES = {
  en: { adapterLocale: enMonday, localeText: undefined },
  it: { adapterLocale: it, localeText: itIT.components.MuiLocalizationProvider.defaultProps.localeText },
} as const;

/** Date pickers inside get the current language and a Monday week start. */
export function DateLocalization({ children }: { children: ReactNode }) {
  const config = PICKER_LOCALES[useLocale()];
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

type TextFieldSlot = NonNullable<DatePickerProps['slotProps']>['textField'];

export type DayPickerProps = {
  label: string;
  value: Date | null;
  onChange: (date: Date | null) => void;
  onAccept?: (date: Date | null) => void;
  /** Props of the text field (name, id, size, error, helperText, onBlur…). */
  textField?: TextFieldSlot;
  /** A clear button in the field, and what it does. */
  onClear?: () => void;
};

/**
 * A day picker. A click in an empty field starts at its first section: MUI X selects the section
 * under the pointer, so a click in the middle of an empty field and typed "2026-11-01" went into the
 * month and day and left `YYYY-MM-0`. Once a section has content, a click picks the section under the
 * pointer as usual (to correct the month, say).
 */
export function DayPicker({ label, value, onChange, onAccept, textField, onClear }: DayPickerProps) {
  const fieldRef = useRef<FieldRef<Date | null>>(null);
  const startEmptyFieldAtFirstSection = () => {
    const field = fieldRef.current;
    if (!field?.getSections().every((section) => section.value === '')) return;
    // After MUI X's own mousedown handler, which runs after this one and selects the section under
    // the pointer. (Not on click: the label moves up as the field gets focus, so the click often
    // lands outside the field.)
    queueMicrotask(() => field.setSelectedSections(0));
  };
  return (
    <DateLocalization>
      <DatePicker
        label={label}
        value={value}
        format={DAY_FORMAT}
        onChange={(date) => onChange(date)}
        onAccept={onAccept ? (date) => onAccept(date) : undefined}
        slotProps={{
          textField,
          field: {
            clearable: onClear !== undefined,
            onClear,
            fieldRef,
            onMouseDown: startEmptyFieldAtFirstSection,
          },
          // MUI X labels the desktop calendar with the id of a toolbar that the desktop layout does
          // not render, which leaves the dialog nameless: name it after its field.
          popper: { 'aria-label': label },
        }}
      />
    </DateLocalization>
  );
}
