import {
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Stack,
  Typography,
} from '@mui/material';
import { Form, Formik, type FormikHelpers } from 'formik';
import { useMemo, useState } from 'react';
import { useIntl } from 'react-intl';
import { FormDisabledReason } from '#client/components/disabled-reason.tsx';
import { PageError, PagePending } from '#client/components/route-fallbacks.tsx';
import { UnsavedChangesGuard } from '#client/components/unsaved-changes.tsx';
import { trimValues } from '#client/lib/form-data.ts';
import {
  FormikTextField,
  InvalidSubmitNotifier,
  initialErrorsFor,
  useFormFeedback,
} from '#client/lib/form-fields.tsx';
import { useSession } from '#client/lib/session.ts';
import { profileSchema } from '#shared/validation/index.ts';
import { type ProfileValues, useMe, useUpdateProfile } from './api/me';
import { NotificationSettingsCard } from './notification-settings-card';
import { PasskeysCard } from './passkeys-card';
import { SecondFactorCard } from './second-factor-card';
import { SessionsCard } from './sessions-card';

export function ProfilePage() {
  const intl = useIntl();
  const current = useSession();
  const me = useMe();
  const update = useUpdateProfile();
  const [updatedOpen, setUpdatedOpen] = useState(false);

  const user = me.data ?? current?.user;
  const initialValues: ProfileValues = {
    name: user?.name ?? '',
    email: user?.email ?? '',
    current_password: '',
    new_password: '',
    repeat_new_password: '',
  };
  // The current password is asked for when the e-mail changes (docs/accounts.md §1).
  const schema = useMemo(() => profileSchema(user?.email), [user?.email]);

  const feedback = useFormFeedback('profile.form.invalid');
  // A refusal keeps the values for a fix.
  const onSubmit = (values: ProfileValues, helpers: FormikHelpers<ProfileValues>) =>
    feedback.submit(helpers, async () => {
      await update.mutateAsync(trimValues(values));
      helpers.resetForm({
        values: { ...values, current_password: '', new_password: '', repeat_new_password: '' },
      });
      setUpdatedOpen(true);
    });

  return (
    <Stack spacing={3} sx={{ maxWidth: 640 }}>
      <Box>
        <Typography variant="overline" color="text.secondary">
          {intl.formatMessage({ id: 'profile.title' })}
        </Typography>
        <Typography variant="h4" component="h1">
          {user?.name?.trim() || intl.formatMessage({ id: 'layout.user.fallback' })}
        </Typography>
      </Box>
      {me.isPending && !user && <PagePending />}
      {me.isError && !user && <PageError />}
      {user && (
        <Card>
          <CardContent>
            <Formik
              initialValues={initialValues}
              validationSchema={schema}
              initialErrors={initialErrorsFor(schema, initialValues)}
              validateOnMount
              enableReinitialize
              onSubmit={onSubmit}
            >
              {({ isSubmitting }) => (
                <Form noValidate aria-label={intl.formatMessage({ id: 'profile.form.label' })}>
                  <InvalidSubmitNotifier feedback={feedback} />
                  <FormikTextField name="name" labelId="profile.form.name" autoComplete="name" required />
                  <UnsavedChangesGuard />
                  <FormikTextField
                    name="email"
                    labelId="profile.form.email"
                    type="email"
                    autoComplete="email"
                    required
                  />
                  <FormikTextField
                    name="current_password"
                    labelId="profile.form.current_password"
                    helperId="profile.form.current_password.help"
                    type="password"
                    autoComplete="current-password"
                  />
                  <FormikTextField
                    name="new_password"
                    labelId="profile.form.new_password"
                    helperId="profile.form.new_password.help"
                    type="password"
                    autoComplete="new-password"
                  />
                  <FormikTextField
                    name="repeat_new_password"
                    labelId="profile.form.repeat_new_password"
                    type="password"
                    autoComplete="new-password"
                  />
                  <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
                    <FormDisabledReason busy={isSubmitting || update.isPending}>
                      <Button
                        type="submit"
                        variant="contained"
                        startIcon={
                          update.isPending ? <CircularProgress size={18} color="inherit" /> : undefined
                        }
                      >
                        {intl.formatMessage({ id: 'profile.form.save' })}
                      </Button>
                    </FormDisabledReason>
                  </Box>
                </Form>
              )}
            </Formik>
          </CardContent>
        </Card>
      )}
      {user && <SecondFactorCard />}
      {user && <PasskeysCard />}
      {user && <SessionsCard />}
      {user && <NotificationSettingsCard />}
      <Dialog
        open={updatedOpen}
        onClose={() => setUpdatedOpen(false)}
        aria-labelledby="profile-updated-title"
      >
        <DialogTitle id="profile-updated-title">
          {intl.formatMessage({ id: 'profile.updated.title' })}
        </DialogTitle>
        <DialogContent>
          <DialogContentText>{intl.formatMessage({ id: 'profile.updated.text' })}</DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setUpdatedOpen(false)} autoFocus>
            {intl.formatMessage({ id: 'common.ok' })}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
