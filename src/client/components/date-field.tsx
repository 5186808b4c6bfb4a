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
import { isValid, parse } from 'date-fns';
import { enUS, it } from 'date-fns/locale';
import { type KeyboardEvent, type ReactNode, useRef } from 'react';
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
  // What was typed since the field was entered or clicked: MUI X edits one section at a time, so a whole
  // day typed over a filled field from its month or day ("2026-09-30" over 2026-10-31) went into that
  // section and the next, and a select-all swallowed the first digit. Once the characters typed make a
  // whole day, that day is the value, wherever the typing started.
  const typed = useRef('');
  const wholeDay = useRef<Date | null>(null);
  const typeOverWholeDay = (event: KeyboardEvent<HTMLElement>) => {
    if (event.key.length !== 1 || event.ctrlKey || event.metaKey || event.altKey) {
      if (event.key !== 'Shift') typed.current = '';
      return;
    }
    typed.current = (typed.current + event.key).slice(-10);
    const whole = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(typed.current.slice(typed.current.search(/\d{4}/)));
    if (!whole) return;
    const day = parse(`${whole[1]}-${whole[2]}-${whole[3]}`, 'yyyy-MM-dd', new Date());
    if (!isValid(day)) return;
    typed.current = '';
    wholeDay.current = day;
  };
  // On the key's release: MUI X applies a typed character to its section on the input that follows the
  // key press (which reports the section's own value), so the whole day is set once that has happened.
  const settleWholeDay = () => {
    const day = wholeDay.current;
    if (!day) return;
    wholeDay.current = null;
    onChange(day);
  };
  const startTyping = () => {
    typed.current = '';
    wholeDay.current = null;
  };
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
            onMouseDown: () => {
              startTyping();
              startEmptyFieldAtFirstSection();
            },
            onFocus: startTyping,
            onKeyDown: typeOverWholeDay,
            onKeyUp: settleWholeDay,
          },
          // MUI X labels the desktop calendar with the id of a toolbar that the desktop layout does
          // not render, which leaves the dialog nameless: name it after its field.
          popper: { 'aria-label': label },
        }}
      />
    </DateLocalization>
  );
}
