import { Box, Button, Card, CardContent, CircularProgress, Link, Typography } from '@mui/material';
import { Link as RouterLink, useNavigate } from '@tanstack/react-router';
import { Form, Formik, type FormikHelpers } from 'formik';
import { useIntl } from 'react-intl';
import { ApiError } from '#client/lib/api-client.ts';
import { trimValues } from '#client/lib/form-data.ts';
import { FormikTextField, initialErrorsFor } from '#client/lib/form-fields.tsx';
import { notifyApiError, showToast, toast } from '#client/lib/toasts.tsx';
import { loginSchema } from '#shared/validation/index.ts';
import { type LoginValues, useLogin } from './api/login';
import { safeRedirect } from './redirect';
import { loginThrottledMessage } from './throttle-message';

const initialValues: LoginValues = { email: '', password: '' };
const initialErrors = initialErrorsFor(loginSchema, initialValues);

export function LoginPage({ redirect }: { redirect?: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const login = useLogin();

  const onSubmit = async (values: LoginValues, helpers: FormikHelpers<LoginValues>) => {
    try {
      await login.mutateAsync(trimValues(values));
      toast.success({ id: 'login.success' });
      await navigate({ href: safeRedirect(redirect), replace: true });
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
