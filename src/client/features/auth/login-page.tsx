import { Box, Button, Card, CardContent, CircularProgress, Link, Typography } from '@mui/material';
import { Link as RouterLink, useNavigate } from '@tanstack/react-router';
import { Form, Formik, type FormikHelpers } from 'formik';
import { type FormEvent, useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import {
  RecoveryCodesPanel,
  SecondFactorCodeField,
  TotpSetupPanel,
} from '#client/components/second-factor.tsx';
import { ApiError } from '#client/lib/api-client.ts';
import { trimValues } from '#client/lib/form-data.ts';
import { FormikTextField, initialErrorsFor } from '#client/lib/form-fields.tsx';
import { notifyApiError, showToast, toast } from '#client/lib/toasts.tsx';
import type { LoginResult } from '#shared/api/index.ts';
import { loginSchema } from '#shared/validation/index.ts';
import {
  type LoginStep,
  type LoginValues,
  useLogin,
  useLoginEnrolConfirm,
  useLoginEnrolStart,
  useLoginSecondFactor,
} from './api/login';
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
              {({ isValid, isSubmitting }) => (
                <Form noValidate>
                  <FormikTextField
                    name="email"
                    labelId="login.email"
                    type="email"
                    autoComplete="username"
                    autoFocus
                    required
                  />
                  <FormikTextField
                    name="password"
                    labelId="login.password"
                    type="password"
                    autoComplete="current-password"
                    required
                  />
                  <Button
                    type="submit"
                    variant="contained"
                    size="large"
                    fullWidth
                    sx={{ mt: 2 }}
                    disabled={!isValid || isSubmitting || login.isPending}
                    startIcon={login.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
                  >
                    {intl.formatMessage({ id: 'login.submit' })}
                  </Button>
                </Form>
              )}
            </Formik>
          )}
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

/** A code of the authenticator app, or a recovery code, after the right password. */
function SecondFactorStep({
  stepToken,
  onSignedIn,
  onRestart,
}: {
  stepToken: string;
  onSignedIn: () => Promise<void>;
  onRestart: () => void;
}) {
  const intl = useIntl();
  const finish = useLoginSecondFactor();
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
        {intl.formatMessage({ id: 'second_factor.login.text' })}
      </Typography>
      <SecondFactorCodeField value={code} onChange={setCode} error={error} autoFocus />
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        sx={{ mt: 2 }}
        disabled={code.trim() === '' || finish.isPending}
        startIcon={finish.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {intl.formatMessage({ id: 'second_factor.login.submit' })}
      </Button>
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
