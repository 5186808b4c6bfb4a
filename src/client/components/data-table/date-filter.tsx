/**
 * A list filter day (the shared DayPicker): the value travels as YYYY-MM-DD (the URL and API format).
 */
import { isValid } from 'date-fns';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { dayFromIso, isoFromDay } from '#client/lib/dates.ts';
import { DayPicker } from '../date-field';

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
  const label = intl.formatMessage({ id: labelId });
  const [draft, setDraftState] = useState<Date | null>(() => dayFromIso(value));
  // The day as last reported, for a commit on leaving the field: the key that leaves may come before
  // React has rendered the last change, and the render's `draft` would then be the one before it.
  const latestDraft = useRef(draft);
  const setDraft = useCallback((date: Date | null) => {
    latestDraft.current = date;
    setDraftState(date);
  }, []);
  // The URL changed (reset, back button, a link): show it.
  useEffect(() => setDraft(dayFromIso(value)), [value, setDraft]);

  const commit = (date: Date | null) => {
    if (date === null) {
      if (value !== undefined) onChange(undefined);
    } else if (isValid(date)) {
      const next = isoFromDay(date);
      if (next !== value) onChange(next);
    }
  };

  return (
    <DayPicker
      label={label}
      value={draft}
      onChange={(date) => setDraft(date)}
      onPick={commit}
      onClear={() => commit(null)}
      textField={{
        size: 'small',
        name,
        sx: { width: 190 },
        onBlur: () => commit(latestDraft.current),
        onKeyDown: (event) => {
          if (event.key === 'Enter') commit(latestDraft.current);
        },
      }}
    />
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
