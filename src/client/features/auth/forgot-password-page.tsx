import { Alert, Box, Button, Card, CardContent, CircularProgress, Link, Typography } from '@mui/material';
import { Link as RouterLink } from '@tanstack/react-router';
import { Form, Formik } from 'formik';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { FormDisabledReason } from '#client/components/disabled-reason.tsx';
import { trimValues } from '#client/lib/form-data.ts';
import { FormikTextField, initialErrorsFor } from '#client/lib/form-fields.tsx';
import { forgotPasswordSchema } from '#shared/validation/index.ts';
import { type ForgotPasswordValues, useRequestPasswordReset } from './api/password-reset';

const initialValues: ForgotPasswordValues = { email: '' };
const initialErrors = initialErrorsFor(forgotPasswordSchema, initialValues);

/**
 * "Forgot your password?" (docs/accounts.md §4): whatever the address, the page says the same, so it
 * tells nobody whether an account uses it.
 */
export function ForgotPasswordPage() {
  const intl = useIntl();
  const request = useRequestPasswordReset();
  const [sent, setSent] = useState(false);

  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: { xs: 2, md: 8 } }}>
      <Card sx={{ width: '100%', maxWidth: 460 }} component="section" aria-labelledby="forgot-title">
        <CardContent sx={{ p: 4 }}>
          <Typography id="forgot-title" variant="h5" component="h1" gutterBottom>
            {intl.formatMessage({ id: 'password_reset.request.title' })}
          </Typography>
          {sent ? (
            <Alert severity="success" role="status">
              {intl.formatMessage({ id: 'password_reset.request.sent' })}
            </Alert>
          ) : (
            <>
              <Typography variant="body2" color="text.secondary">
                {intl.formatMessage({ id: 'password_reset.request.text' })}
              </Typography>
              <Formik
                initialValues={initialValues}
                validationSchema={forgotPasswordSchema}
                initialErrors={initialErrors}
                validateOnMount
                onSubmit={async (values) => {
                  try {
                    await request.mutateAsync(trimValues(values));
                    setSent(true);
                  } catch {
                    // The alert came from the mutation cache (docs/product.md §8).
                  }
                }}
              >
                {({ isSubmitting }) => (
                  <Form noValidate>
                    <FormikTextField
                      name="email"
                      labelId="login.email"
                      type="email"
                      autoComplete="username"
                      autoFocus
                      required
                    />
                    <FormDisabledReason busy={isSubmitting} fullWidth>
                      <Button
                        type="submit"
                        variant="contained"
                        size="large"
                        fullWidth
                        sx={{ mt: 2 }}
                        startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
                      >
                        {intl.formatMessage({ id: 'password_reset.request.submit' })}
                      </Button>
                    </FormDisabledReason>
                  </Form>
                )}
              </Formik>
            </>
          )}
          <Box sx={{ mt: 2, textAlign: 'center' }}>
            <Link component={RouterLink} to="/login">
              {intl.formatMessage({ id: 'password_reset.back_to_login' })}
            </Link>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
