import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Divider,
  Link,
  Typography,
} from '@mui/material';
import { Link as RouterLink, useNavigate } from '@tanstack/react-router';
import { Form, Formik, type FormikHelpers } from 'formik';
import { type FormEvent, useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { FormDisabledReason } from '#client/components/disabled-reason.tsx';
import {
  RecoveryCodesPanel,
  SecondFactorCodeField,
  TotpSetupPanel,
} from '#client/components/second-factor.tsx';
import { ApiError } from '#client/lib/api-client.ts';
import { trimValues } from '#client/lib/form-data.ts';
import { FormikTextField, initialErrorsFor } from '#client/lib/form-fields.tsx';
import { passkeyDismissed, passkeysSupported } from '#client/lib/passkeys.ts';
import { notifyApiError, showToast, toast } from '#client/lib/toasts.tsx';
import type { LoginResult } from '#shared/api/index.ts';
import { loginSchema } from '#shared/validation/index.ts';
import {
  type LoginStep,
  type LoginValues,
  useLogin,
  useLoginEnrolConfirm,
  useLoginEnrolStart,
  useLoginPasskey,
  useLoginSecondFactor,
  usePasskeySignIn,
} from './api/login';
import { AccountEmailField, SubmitButton } from './page-parts';
import { safeRedirect } from './redirect';
import { loginThrottledMessage } from './throttle-message';

const initialValues: LoginValues = { email: '', password: '' };
const initialErrors = initialErrorsFor(loginSchema, initialValues);

export function LoginPage({ redirect }: { redirect?: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const login = useLogin();
  const [step, setStep] = useState<LoginStep | null>(null);

  const signedIn = async () => {
    toast.success({ id: 'login.success' });
    await navigate({ href: safeRedirect(redirect), replace: true });
  };

  const onSubmit = async (values: LoginValues, helpers: FormikHelpers<LoginValues>) => {
    try {
      const answer = await login.mutateAsync(trimValues(values));
      if ('step' in answer) {
        // A right password, with a second factor owed (docs/accounts.md §5).
        setStep(answer);
        return;
      }
      await signedIn();
    } catch (error) {
      // Clear the password (and the submit count, so it is not flagged before the user types again).
      helpers.resetForm({ values: { ...values, password: '' } });
      void helpers.validateForm({ ...values, password: '' });
      if (error instanceof ApiError && error.status === 429) {
        // The throttle's answer carries its wait; the per-address rate limit's does not.
        const throttled = loginThrottledMessage(error.data);
        if (throttled) toast.error(throttled);
        else
          showToast({
            severity: 'error',
            serverMessage: error.message,
            fallback: { id: 'errors.too_many_login_attempts' },
          });
      } else if (error instanceof ApiError && (error.status >= 500 || error.status === 405)) {
        notifyApiError(error);
      } else {
        toast.error({ id: 'login.failed' });
      }
    }
  };

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: { xs: 2, md: 8 } }}>
      <Card sx={{ width: '100%', maxWidth: 420 }} component="section" aria-labelledby="login-title">
        <CardContent sx={{ p: 4 }}>
          <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', mb: 2 }}>
            <Box component="img" src="/logo.svg" alt="" sx={{ width: 64, height: 64, mb: 1 }} />
            <Typography id="login-title" variant="h5" component="h1">
              {intl.formatMessage({ id: 'login.title' })}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {intl.formatMessage({ id: 'login.subtitle' })}
            </Typography>
          </Box>
          {step?.step === 'second_factor' && (
            <SecondFactorStep
              stepToken={step.step_token}
              factors={step.factors ?? ['totp', 'recovery_code']}
              onSignedIn={signedIn}
              onRestart={() => setStep(null)}
            />
          )}
          {step?.step === 'enrol' && (
            <EnrolStep stepToken={step.step_token} onSignedIn={signedIn} onRestart={() => setStep(null)} />
          )}
          {step === null && (
            <Formik
              initialValues={initialValues}
              validationSchema={loginSchema}
              initialErrors={initialErrors}
              validateOnMount
              onSubmit={onSubmit}
            >
              {({ isSubmitting }) => (
                <Form noValidate>
                  <AccountEmailField />
                  <FormikTextField
                    name="password"
                    labelId="login.password"
                    type="password"
                    autoComplete="current-password"
                    required
                  />
                  <FormDisabledReason busy={isSubmitting || login.isPending} fullWidth>
                    <SubmitButton labelId="login.submit" busy={login.isPending} />
                  </FormDisabledReason>
                </Form>
              )}
            </Formik>
          )}
          {step === null && <PasskeySignIn onSignedIn={signedIn} />}
          <Box sx={{ mt: 2, textAlign: 'center' }}>
            {/* Pressing the link must not blur the e-mail field first: its "mandatory" message would push
                the link down between press and release, and the click would miss it. */}
            <Link
              component={RouterLink}
              to="/forgot-password"
              onMouseDown={(event) => event.preventDefault()}
            >
              {intl.formatMessage({ id: 'login.forgot_password' })}
            </Link>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}

/**
 * A button that runs a passkey ceremony and says when it failed; a dismissed browser dialog is no
 * failure. Pressing it keeps the focus where it is: a blur of the e-mail field would show its message
 * and move the button between press and release.
 */
function PasskeyButton({
  labelId,
  failedId,
  primary,
  run,
}: {
  labelId: string;
  failedId: string;
  primary: boolean;
  run: () => Promise<void>;
}) {
  const intl = useIntl();
  const [pending, setPending] = useState(false);
  const [failed, setFailed] = useState(false);
  const start = async () => {
    setFailed(false);
    setPending(true);
    try {
      await run();
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) {
        const throttled = loginThrottledMessage(error.data);
        toast.error(throttled ?? { id: 'errors.too_many_login_attempts' });
      } else if (!passkeyDismissed(error)) setFailed(true);
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <Button
        variant={primary ? 'contained' : 'outlined'}
        size="large"
        fullWidth
        onClick={() => void start()}
        onMouseDown={(event) => event.preventDefault()}
        disabled={pending}
        startIcon={pending ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {intl.formatMessage({ id: labelId })}
      </Button>
      {failed && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {intl.formatMessage({ id: failedId })}
        </Alert>
      )}
    </>
  );
}

/**
 * Passwordless (docs/accounts.md §6): the browser offers the passkeys it keeps for this site; one that
 * verifies its user signs in as a password and a second factor would.
 */
function PasskeySignIn({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const intl = useIntl();
  const signIn = usePasskeySignIn();
  if (!passkeysSupported()) return null;
  return (
    <Box sx={{ mt: 2 }}>
      <Divider sx={{ mb: 2 }}>{intl.formatMessage({ id: 'login.or' })}</Divider>
      <PasskeyButton
        labelId="login.passkey"
        failedId="login.passkey.failed"
        primary={false}
        run={async () => {
          await signIn.mutateAsync();
          await onSignedIn();
        }}
      />
    </Box>
  );
}

/** One of the user's passkeys as the second step. */
function PasskeyStep({
  stepToken,
  onSignedIn,
  primary,
}: {
  stepToken: string;
  onSignedIn: () => Promise<void>;
  primary: boolean;
}) {
  const finish = useLoginPasskey();
  return (
    <Box sx={{ mt: 2 }}>
      <PasskeyButton
        labelId="second_factor.login.passkey"
        failedId="second_factor.login.passkey_failed"
        primary={primary}
        run={async () => {
          await finish.mutateAsync(stepToken);
          await onSignedIn();
        }}
      />
    </Box>
  );
}

/** A code of the authenticator app, a recovery code, or a passkey, after the right password. */
function SecondFactorStep({
  stepToken,
  factors,
  onSignedIn,
  onRestart,
}: {
  stepToken: string;
  factors: readonly string[];
  onSignedIn: () => Promise<void>;
  onRestart: () => void;
}) {
  const intl = useIntl();
  const finish = useLoginSecondFactor();
  const withCode = factors.includes('totp') || factors.includes('recovery_code');
  const withPasskey = factors.includes('passkey');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await finish.mutateAsync({ step_token: stepToken, code: code.trim() });
      await onSignedIn();
    } catch (failure) {
      setCode('');
      if (failure instanceof ApiError && failure.status === 429) {
        const throttled = loginThrottledMessage(failure.data);
        setError(throttled ? intl.formatMessage({ id: throttled.id }, throttled.values) : undefined);
      } else setError(intl.formatMessage({ id: 'second_factor.failed' }));
    }
  };
  return (
    <Box
      component="form"
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby="second-factor-title"
    >
      <Typography id="second-factor-title" variant="h6" component="h2">
        {intl.formatMessage({ id: 'second_factor.login.title' })}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {intl.formatMessage({
          id: withCode ? 'second_factor.login.text' : 'second_factor.login.passkey_text',
        })}
      </Typography>
      {withCode && (
        <>
          <SecondFactorCodeField value={code} onChange={setCode} error={error} autoFocus />
          <SubmitButton
            labelId="second_factor.login.submit"
            busy={finish.isPending}
            disabled={code.trim() === '' || finish.isPending}
          />
        </>
      )}
      {withPasskey && <PasskeyStep stepToken={stepToken} onSignedIn={onSignedIn} primary={!withCode} />}
      <Button fullWidth sx={{ mt: 1 }} onClick={onRestart}>
        {intl.formatMessage({ id: 'second_factor.login.restart' })}
      </Button>
    </Box>
  );
}

/** A role that must have a second factor sets up an app before anything else (MFA_REQUIRED_ROLES). */
function EnrolStep({
  stepToken,
  onSignedIn,
  onRestart,
}: {
  stepToken: string;
  onSignedIn: () => Promise<void>;
  onRestart: () => void;
}) {
  const intl = useIntl();
  const start = useLoginEnrolStart();
  const confirm = useLoginEnrolConfirm();
  const [error, setError] = useState<string | undefined>();
  const [done, setDone] = useState<(LoginResult & { recovery_codes: string[] }) | null>(null);
  const { mutate } = start;
  useEffect(() => mutate(stepToken), [mutate, stepToken]);

  const onConfirm = async (code: string) => {
    setError(undefined);
    try {
      setDone(await confirm.mutateAsync({ step_token: stepToken, code }));
    } catch {
      setError(intl.formatMessage({ id: 'validation.second_factor.code.wrong' }));
    }
  };
  return (
    <Box aria-labelledby="enrol-title" component="section">
      <Typography id="enrol-title" variant="h6" component="h2">
        {intl.formatMessage({ id: 'second_factor.enrol.title' })}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {intl.formatMessage({ id: 'second_factor.enrol.text' })}
      </Typography>
      {start.isPending && <CircularProgress aria-label={intl.formatMessage({ id: 'common.loading' })} />}
      {start.isError && (
        <Button fullWidth onClick={onRestart}>
          {intl.formatMessage({ id: 'second_factor.login.restart' })}
        </Button>
      )}
      {start.data && !done && <TotpSetupPanel enrolment={start.data} onConfirm={onConfirm} error={error} />}
      {done && (
        <RecoveryCodesPanel
          codes={done.recovery_codes}
          onDone={() => {
            confirm.store(done);
            void onSignedIn();
          }}
        />
      )}
    </Box>
  );
}
