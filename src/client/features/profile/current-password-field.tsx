import { TextField } from '@mui/material';
import { useIntl } from 'react-intl';
import { translateValidation } from '#client/lib/intl.tsx';

/** The password typed again before a change of one's own second factors (docs/accounts.md §5, §6). */
export function CurrentPasswordField({
  value,
  onChange,
  error,
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  /** A validation message id from the server. */
  error: string | undefined;
  autoFocus?: boolean;
}) {
  const intl = useIntl();
  return (
    <TextField
      fullWidth
      margin="normal"
      type="password"
      name="current_password"
      autoComplete="current-password"
      label={intl.formatMessage({ id: 'profile.form.current_password' })}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={Boolean(error)}
      helperText={error ? translateValidation(intl, error) : undefined}
      required
      autoFocus={autoFocus}
    />
  );
}
