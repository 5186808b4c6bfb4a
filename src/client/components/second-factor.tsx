/**
 * The pieces of a second factor's screens (docs/accounts.md §5) that sign-in and the profile share:
 * setting up an authenticator app (its QR code and secret, then a first code) and the recovery codes,
 * shown once.
 */
import { Alert, Box, Button, CircularProgress, List, ListItem, TextField, Typography } from '@mui/material';
import { type FormEvent, useId, useState } from 'react';
import { useIntl } from 'react-intl';

export interface TotpEnrolmentView {
  secret: string;
  otpauth_uri: string;
  qr_code: string;
}

/** A code field: six digits of the app, or a recovery code (the server tells which). */
export function SecondFactorCodeField({
  value,
  onChange,
  error,
  labelId = 'second_factor.code',
  autoFocus,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  labelId?: string;
  autoFocus?: boolean;
}) {
  const intl = useIntl();
  return (
    <TextField
      fullWidth
      margin="normal"
      name="code"
      label={intl.formatMessage({ id: labelId })}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      autoComplete="one-time-code"
      slotProps={{ htmlInput: { inputMode: 'text', spellCheck: false, maxLength: 64 } }}
      error={Boolean(error)}
      helperText={error ?? intl.formatMessage({ id: 'second_factor.code.help' })}
      autoFocus={autoFocus}
      required
    />
  );
}

/** Scan or type the secret, then confirm with the app's first code. */
export function TotpSetupPanel({
  enrolment,
  onConfirm,
  error,
}: {
  enrolment: TotpEnrolmentView;
  onConfirm: (code: string) => Promise<void>;
  error?: string | undefined;
}) {
  const intl = useIntl();
  const secretId = useId();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await onConfirm(code.trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box component="form" onSubmit={(event) => void submit(event)} noValidate>
      <Typography variant="body2">{intl.formatMessage({ id: 'second_factor.setup.scan' })}</Typography>
      <Box sx={{ display: 'flex', justifyContent: 'center', my: 2 }}>
        <Box
          component="img"
          src={enrolment.qr_code}
          alt={intl.formatMessage({ id: 'second_factor.setup.qr_alt' })}
          sx={{ width: 200, height: 200 }}
        />
      </Box>
      <Typography variant="body2" id={secretId}>
        {intl.formatMessage({ id: 'second_factor.setup.secret' })}
      </Typography>
      <Typography
        component="code"
        aria-labelledby={secretId}
        data-testid="totp-secret"
        sx={{ display: 'block', fontFamily: 'monospace', fontSize: '1.1rem', wordBreak: 'break-all', my: 1 }}
      >
        {enrolment.secret}
      </Typography>
      <SecondFactorCodeField
        value={code}
        onChange={setCode}
        error={error}
        labelId="second_factor.setup.code"
      />
      <Button
        type="submit"
        variant="contained"
        fullWidth
        disabled={!/^\d{6}$/.test(code.trim()) || busy}
        startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {intl.formatMessage({ id: 'second_factor.setup.confirm' })}
      </Button>
    </Box>
  );
}

/** The ten recovery codes, shown this once: the user keeps them before going on. */
export function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const intl = useIntl();
  const titleId = useId();
  return (
    <Box>
      <Alert severity="warning" sx={{ mb: 2 }}>
        {intl.formatMessage({ id: 'second_factor.recovery.once' })}
      </Alert>
      <Typography id={titleId} variant="subtitle1" component="h2">
        {intl.formatMessage({ id: 'second_factor.recovery.title' })}
      </Typography>
      <List dense aria-labelledby={titleId} sx={{ columns: 2, fontFamily: 'monospace' }}>
        {codes.map((code) => (
          <ListItem key={code} sx={{ fontFamily: 'monospace' }}>
            {code}
          </ListItem>
        ))}
      </List>
      <Button variant="contained" fullWidth onClick={onDone}>
        {intl.formatMessage({ id: 'second_factor.recovery.saved' })}
      </Button>
    </Box>
  );
}
