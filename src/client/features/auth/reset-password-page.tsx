import { Alert, Link, Typography } from '@mui/material';
import { Link as RouterLink, useNavigate } from '@tanstack/react-router';
import { Form, Formik, type FormikHelpers } from 'formik';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from '#client/lib/api-client.ts';
import { FormikTextField, initialErrorsFor } from '#client/lib/form-fields.tsx';
import { translateValidation } from '#client/lib/intl.tsx';
import { notifyApiError, toast } from '#client/lib/toasts.tsx';
import { resetPasswordSchema } from '#shared/validation/index.ts';
import { type ResetPasswordValues, useCompletePasswordReset } from './api/password-reset';
import { FormikSubmitButton, PasswordResetCard } from './page-parts';

/** The link's token travels in the fragment (#token=…): the browser never sends it to a server. */
function tokenFromLocation(): string {
  return new URLSearchParams(window.location.hash.replace(/^#/, '')).get('token') ?? '';
}

/** Choosing a new password from a reset link (docs/accounts.md §4); then the user logs in with it. */
export function ResetPasswordPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const complete = useCompletePasswordReset();
  const [token] = useState(tokenFromLocation);
  const [linkRefused, setLinkRefused] = useState(token === '');
  const initialValues: ResetPasswordValues = { token, new_password: '', repeat_new_password: '' };

  const onSubmit = async (values: ResetPasswordValues, helpers: FormikHelpers<ResetPasswordValues>) => {
    try {
      await complete.mutateAsync(values);
      // The link is spent: it leaves the address bar and the history entry.
      window.history.replaceState(null, '', window.location.pathname);
      toast.success({ id: 'password_reset.completed' });
      await navigate({ to: '/login', replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.message === 'validation_error' && error.data) {
        const fields = error.data as Record<string, string[]>;
        if (fields.token) setLinkRefused(true);
        helpers.setErrors(
          Object.fromEntries(Object.entries(fields).map(([field, ids]) => [field, ids[0] ?? ''])),
        );
      } else if (error instanceof ApiError) notifyApiError(error);
    }
  };

  return (
    <PasswordResetCard headingId="reset-title" titleId="password_reset.complete.title">
      {linkRefused ? (
        <Alert severity="error">
          {translateValidation(intl, 'validation.password_reset.link_invalid')}{' '}
          <Link component={RouterLink} to="/forgot-password">
            {intl.formatMessage({ id: 'password_reset.ask_again' })}
          </Link>
        </Alert>
      ) : (
        <Formik
          initialValues={initialValues}
          validationSchema={resetPasswordSchema}
          initialErrors={initialErrorsFor(resetPasswordSchema, initialValues)}
          validateOnMount
          onSubmit={onSubmit}
        >
          <Form noValidate aria-label={intl.formatMessage({ id: 'password_reset.complete.title' })}>
            <Typography variant="body2" color="text.secondary">
              {intl.formatMessage({ id: 'password_reset.complete.text' })}
            </Typography>
            <FormikTextField
              name="new_password"
              labelId="profile.form.new_password"
              helperId="password_reset.complete.rules"
              type="password"
              autoComplete="new-password"
              autoFocus
              required
            />
            <FormikTextField
              name="repeat_new_password"
              labelId="profile.form.repeat_new_password"
              type="password"
              autoComplete="new-password"
              required
            />
            <FormikSubmitButton labelId="password_reset.complete.submit" />
          </Form>
        </Formik>
      )}
    </PasswordResetCard>
  );
}
