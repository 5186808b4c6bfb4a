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
import { type FocusEvent, type KeyboardEvent, type ReactNode, useRef } from 'react';
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

/** Keys after which a day just typed stays the value: leaving the field, not editing it. */
const KEYS_THAT_KEEP_A_TYPED_DAY = new Set(['Tab', 'Shift', 'Enter']);

type TextFieldSlot = NonNullable<DatePickerProps['slotProps']>['textField'];

export type DayPickerProps = {
  label: string;
  value: Date | null;
  onChange: (date: Date | null) => void;
  /** A day picked in the calendar (typing reports through onChange only: the caller commits it when the field is left). */
  onPick?: (date: Date | null) => void;
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
export function DayPicker({ label, value, onChange, onPick, textField, onClear }: DayPickerProps) {
  const fieldRef = useRef<FieldRef<Date | null>>(null);
  // What was typed since the field was entered or clicked: MUI X edits one section at a time, so a whole
  // day typed over a filled field from its month or day ("2026-09-30" over 2026-10-31) went into that
  // section and the next, and a select-all swallowed the first digit. Once the characters typed make a
  // whole day, that day is the value, wherever the typing started. The keys are read as they go down,
  // before MUI X's sections see them (it keeps its key presses to itself), and the key that completes
  // the day never reaches a section. MUI X may still report its sections' value after that (it reports
  // from its render): until the next key or click, such a report gives the typed day.
  const typed = useRef('');
  const typedDay = useRef<Date | null>(null);
  const typeOverWholeDay = (event: KeyboardEvent<HTMLElement>) => {
    if (!KEYS_THAT_KEEP_A_TYPED_DAY.has(event.key)) typedDay.current = null;
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
    typedDay.current = day;
    event.preventDefault();
    event.stopPropagation();
    onChange(day);
  };
  const startTyping = () => {
    typed.current = '';
    typedDay.current = null;
  };
  // MUI X moves the focus from section to section as they fill: only focus from outside the field
  // starts a new typing.
  const enterField = (event: FocusEvent<HTMLElement>) => {
    if (event.currentTarget.contains(event.relatedTarget as Node | null)) return;
    startTyping();
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
        onChange={(date) => onChange(typedDay.current ?? date)}
        onAccept={(date, context) => {
          // MUI X also accepts each valid day the typing goes through (2024-02-02 on the way to
          // 2024-02-29): a caller committing those would navigate mid-typing.
          if (context.source === 'view') onPick?.(date);
        }}
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
            onFocus: enterField,
            onKeyDownCapture: typeOverWholeDay,
          },
          // MUI X labels the desktop calendar with the id of a toolbar that the desktop layout does
          // not render, which leaves the dialog nameless: name it after its field.
          popper: { 'aria-label': label },
        }}
      />
    </DateLocalization>
  );
}
