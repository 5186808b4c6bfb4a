/**
 * What the sign-in pages are made of: the card of the password reset pages, the account's e-mail
 * field, and the one submit button of each form (large, across the card, with a spinner while busy).
 */
import { Box, Button, Card, CardContent, CircularProgress, Typography } from '@mui/material';
import { useFormikContext } from 'formik';
import type { ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { FormDisabledReason } from '#client/components/disabled-reason.tsx';
import { FormikTextField } from '#client/lib/form-fields.tsx';

/** The card a password reset page stands in, named by its title (`headingId`: the title element's id). */
export function PasswordResetCard({
  headingId,
  titleId,
  children,
}: {
  headingId: string;
  titleId: string;
  children: ReactNode;
}) {
  const intl = useIntl();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', pt: { xs: 2, md: 8 } }}>
      <Card sx={{ width: '100%', maxWidth: 460 }} component="section" aria-labelledby={headingId}>
        <CardContent sx={{ p: 4 }}>
          <Typography id={headingId} variant="h5" component="h1" gutterBottom>
            {intl.formatMessage({ id: titleId })}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Box>
  );
}

/** The e-mail address an account signs in with, first in its form. */
export function AccountEmailField() {
  return (
    <FormikTextField
      name="email"
      labelId="login.email"
      type="email"
      autoComplete="username"
      autoFocus
      required
    />
  );
}

export function SubmitButton({
  labelId,
  busy,
  disabled,
}: {
  labelId: string;
  /** Shows the spinner. */
  busy: boolean;
  disabled?: boolean;
}) {
  const intl = useIntl();
  return (
    <Button
      type="submit"
      variant="contained"
      size="large"
      fullWidth
      sx={{ mt: 2 }}
      disabled={disabled}
      startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
    >
      {intl.formatMessage({ id: labelId })}
    </Button>
  );
}

/**
 * The submit button of a Formik form (place it inside the <Formik>): disabled while the form is
 * invalid, saying why, or while it is being submitted, with the spinner meanwhile.
 */
export function FormikSubmitButton({ labelId }: { labelId: string }) {
  const { isSubmitting } = useFormikContext();
  return (
    <FormDisabledReason busy={isSubmitting} fullWidth>
      <SubmitButton labelId={labelId} busy={isSubmitting} />
    </FormDisabledReason>
  );
}
