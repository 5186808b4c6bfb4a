import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useIntl } from 'react-intl';
import { PageError, PagePending } from '#client/components/route-fallbacks.tsx';
import {
  RecoveryCodesPanel,
  SecondFactorCodeField,
  type TotpEnrolmentView,
  TotpSetupPanel,
} from '#client/components/second-factor.tsx';
import { ApiError } from '#client/lib/api-client.ts';
import { translateValidation } from '#client/lib/intl.tsx';
import { toast } from '#client/lib/toasts.tsx';
import {
  useConfirmTotpEnrolment,
  useRemoveSecondFactor,
  useSecondFactor,
  useStartTotpEnrolment,
} from './api/second-factor';
import { CurrentPasswordField } from './current-password-field';
import { factorProof, fieldErrors } from './factor-proof';

type Stage =
  | { kind: 'closed' }
  | { kind: 'prove'; action: 'enrol' | 'remove' }
  | { kind: 'setup'; enrolment: TotpEnrolmentView }
  | { kind: 'codes'; codes: string[] };

/**
 * Two-step verification in the profile (docs/accounts.md §5): set up an authenticator app (the
 * password again, and a code of the app in force when replacing it), see the recovery codes once, or
 * remove it when the role does not require one.
 */
export function SecondFactorCard() {
  const intl = useIntl();
  const status = useSecondFactor();
  const start = useStartTotpEnrolment();
  const confirm = useConfirmTotpEnrolment();
  const remove = useRemoveSecondFactor();
  const [stage, setStage] = useState<Stage>({ kind: 'closed' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [confirmError, setConfirmError] = useState<string | undefined>();
  const enabled = status.data?.totp === true;

  const close = () => {
    setStage({ kind: 'closed' });
    setPassword('');
    setCode('');
    setErrors({});
    setConfirmError(undefined);
  };
  const prove = async (event: FormEvent, action: 'enrol' | 'remove') => {
    event.preventDefault();
    setErrors({});
    try {
      // With passkeys but no app, one of the passkeys confirms it (its browser dialog opens here).
      const values = await factorProof(status.data, password, code);
      if (action === 'enrol') setStage({ kind: 'setup', enrolment: await start.mutateAsync(values) });
      else {
        await remove.mutateAsync(values);
        toast.success({ id: 'second_factor.removed' });
        close();
      }
    } catch (error) {
      const { passkey, ...fields } = fieldErrors(error);
      if (passkey) fields._ = passkey;
      setErrors(
        Object.keys(fields).length > 0
          ? fields
          : { _: error instanceof ApiError ? error.message : 'passkeys.dismissed' },
      );
    }
  };
  const onConfirm = async (typed: string) => {
    setConfirmError(undefined);
    try {
      setStage({ kind: 'codes', codes: (await confirm.mutateAsync(typed)).recovery_codes });
    } catch (error) {
      setConfirmError(
        translateValidation(intl, fieldErrors(error).code ?? 'validation.second_factor.code.wrong'),
      );
    }
  };
  const proving = stage.kind === 'prove' ? stage.action : null;

  return (
    <Card component="section" aria-labelledby="profile-second-factor-title">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
          <Typography id="profile-second-factor-title" variant="h6" component="h2">
            {intl.formatMessage({ id: 'second_factor.profile.title' })}
          </Typography>
          {status.data && (
            <Chip
              size="small"
              color={enabled ? 'success' : 'default'}
              label={intl.formatMessage({
                id: enabled ? 'second_factor.profile.on' : 'second_factor.profile.off',
              })}
            />
          )}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {intl.formatMessage({ id: 'second_factor.profile.text' })}
        </Typography>
        {status.isPending && <PagePending />}
        {status.isError && <PageError />}
        {status.data?.required && !enabled && status.data.passkeys === 0 && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {intl.formatMessage({ id: 'second_factor.profile.required' })}
          </Alert>
        )}
        {status.data && enabled && (
          <Typography variant="body2" sx={{ mb: 2 }}>
            {intl.formatMessage(
              { id: 'second_factor.profile.codes_left' },
              { count: status.data.recovery_codes_left },
            )}
          </Typography>
        )}
        {status.data && (
          <Box sx={{ display: 'flex', justifyContent: 'flex-end', gap: 2 }}>
            {enabled && (!status.data.required || status.data.passkeys > 0) && (
              <Button
                color="error"
                variant="outlined"
                onClick={() => setStage({ kind: 'prove', action: 'remove' })}
              >
                {intl.formatMessage({ id: 'second_factor.profile.remove' })}
              </Button>
            )}
            <Button variant="contained" onClick={() => setStage({ kind: 'prove', action: 'enrol' })}>
              {intl.formatMessage({
                id: enabled ? 'second_factor.profile.replace' : 'second_factor.profile.enrol',
              })}
            </Button>
          </Box>
        )}
      </CardContent>
      <Dialog
        open={stage.kind !== 'closed'}
        onClose={close}
        aria-labelledby="second-factor-dialog-title"
        fullWidth
      >
        <DialogTitle id="second-factor-dialog-title">
          {intl.formatMessage({
            id: proving === 'remove' ? 'second_factor.profile.remove' : 'second_factor.setup.title',
          })}
        </DialogTitle>
        <DialogContent>
          {proving && (
            <Box
              component="form"
              id="second-factor-prove"
              onSubmit={(event) => void prove(event, proving)}
              noValidate
            >
              <Typography variant="body2" color="text.secondary">
                {intl.formatMessage({ id: 'second_factor.profile.prove' })}
              </Typography>
              <CurrentPasswordField
                value={password}
                onChange={setPassword}
                error={errors.current_password}
                autoFocus
              />
              {enabled && (
                <SecondFactorCodeField
                  value={code}
                  onChange={setCode}
                  error={errors.code ? translateValidation(intl, errors.code) : undefined}
                />
              )}
              {errors._ && <Alert severity="error">{translateValidation(intl, errors._)}</Alert>}
            </Box>
          )}
          {stage.kind === 'setup' && (
            <TotpSetupPanel enrolment={stage.enrolment} onConfirm={onConfirm} error={confirmError} />
          )}
          {stage.kind === 'codes' && <RecoveryCodesPanel codes={stage.codes} onDone={close} />}
        </DialogContent>
        {proving && (
          <DialogActions>
            <Button onClick={close}>{intl.formatMessage({ id: 'common.cancel' })}</Button>
            <Button
              type="submit"
              form="second-factor-prove"
              variant="contained"
              color={proving === 'remove' ? 'error' : 'primary'}
              disabled={
                password === '' || (enabled && code.trim() === '') || start.isPending || remove.isPending
              }
              startIcon={
                start.isPending || remove.isPending ? (
                  <CircularProgress size={18} color="inherit" />
                ) : undefined
              }
            >
              {intl.formatMessage({
                id: proving === 'remove' ? 'second_factor.profile.remove' : 'common.continue',
              })}
            </Button>
          </DialogActions>
        )}
      </Dialog>
    </Card>
  );
}
