import { Alert, Box, Link, Typography } from '@mui/material';
import { Link as RouterLink } from '@tanstack/react-router';
import { Form, Formik } from 'formik';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { trimValues } from '#client/lib/form-data.ts';
import { initialErrorsFor } from '#client/lib/form-fields.tsx';
import { forgotPasswordSchema } from '#shared/validation/index.ts';
import { type ForgotPasswordValues, useRequestPasswordReset } from './api/password-reset';
import { AccountEmailField, FormikSubmitButton, PasswordResetCard } from './page-parts';

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
    <PasswordResetCard headingId="forgot-title" titleId="password_reset.request.title">
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
            <Form noValidate>
              <AccountEmailField />
              <FormikSubmitButton labelId="password_reset.request.submit" />
            </Form>
          </Formik>
        </>
      )}
      <Box sx={{ mt: 2, textAlign: 'center' }}>
        <Link component={RouterLink} to="/login">
          {intl.formatMessage({ id: 'password_reset.back_to_login' })}
        </Link>
      </Box>
    </PasswordResetCard>
  );
}
