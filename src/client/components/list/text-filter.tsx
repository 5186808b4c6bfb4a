import { TextField } from '@mui/material';
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';

/** How long typing must pause before a text filter applies: long enough not to refetch per keystroke. */
export const TEXT_FILTER_DELAY_MS = 400;

const normalize = (text: string) => (text.trim() === '' ? undefined : text.trim());

/**
 * A text filter of the list frame. Like every other filter it applies without a further gesture: after
 * a short pause in the typing (or at once with Enter or when the field is left). The typed text stays
 * as typed (trailing spaces included) while the URL holds its trimmed value, so applying it never
 * rewrites what is being typed.
 */
export function TextFilter({
  name,
  labelId,
  value,
  onChange,
  disabled = false,
  disabledHintId,
  numeric = false,
  width = 240,
  placeholderId,
  maxLength,
}: {
  name: string;
  labelId: string;
  /** The applied value (from the URL). */
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  disabled?: boolean;
  /** Message id saying what enables the field, shown beneath it while it is disabled. */
  disabledHintId?: string;
  numeric?: boolean;
  width?: number;
  /** Message id of an example of what to type, shown while the field is empty. */
  placeholderId?: string;
  maxLength?: number;
}) {
  const intl = useIntl();
  const [draft, setDraft] = useState(value ?? '');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The URL changed elsewhere (Reset, the back button, a link): show it, unless it is what is typed.
  useEffect(() => setDraft((typed) => (normalize(typed) === value ? typed : (value ?? ''))), [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const apply = (text: string) => {
    clearTimeout(timer.current);
    const next = normalize(text);
    if (next !== value) onChange(next);
  };

  return (
    <TextField
      size="small"
      name={name}
      label={intl.formatMessage({ id: labelId })}
      placeholder={placeholderId ? intl.formatMessage({ id: placeholderId }) : undefined}
      value={draft}
      disabled={disabled}
      helperText={disabled && disabledHintId ? intl.formatMessage({ id: disabledHintId }) : undefined}
      onChange={(event) => {
        const text = event.target.value;
        setDraft(text);
        clearTimeout(timer.current);
        timer.current = setTimeout(() => apply(text), TEXT_FILTER_DELAY_MS);
      }}
      onBlur={() => apply(draft)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') apply(draft);
      }}
      slotProps={{
        htmlInput: {
          ...(numeric ? { inputMode: 'numeric', pattern: '[0-9]*' } : {}),
          ...(maxLength ? { maxLength } : {}),
        },
        // The placeholder shows only when the label is above the field.
        inputLabel: placeholderId ? { shrink: true } : undefined,
      }}
      sx={{ width }}
    />
  );
}
