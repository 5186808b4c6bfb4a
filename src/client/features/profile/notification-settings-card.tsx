import {
  Box,
  Button,
  Card,
  CardContent,
  Checkbox,
  CircularProgress,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import { Form, Formik, type FormikHelpers } from 'formik';
import { useIntl } from 'react-intl';
import { FormDisabledReason } from '#client/components/disabled-reason.tsx';
import { PageError, PagePending } from '#client/components/route-fallbacks.tsx';
import { UnsavedChangesGuard } from '#client/components/unsaved-changes.tsx';
import { useFormFeedback } from '#client/lib/form-fields.tsx';
import { toast } from '#client/lib/toasts.tsx';
import type { AlertKind } from '#shared/alerts/index.ts';
import type { NotificationSettings } from '#shared/api/index.ts';
import { MAIL_LANGUAGES, type MailLanguage } from '#shared/notifications/index.ts';
import { useNotificationSettings, useUpdateNotificationSettings } from './api/notifications';

type Values = { language: MailLanguage; kinds: AlertKind[] };

const valuesOf = (settings: NotificationSettings): Values => ({
  language: settings.language,
  kinds: settings.email_alert_kinds,
});

/**
 * The profile's e-mail notifications: which alert kinds reach the user by e-mail and the language of
 * those mails (a mail has no browser to take the language from).
 */
export function NotificationSettingsCard() {
  const intl = useIntl();
  const settings = useNotificationSettings();
  const update = useUpdateNotificationSettings();
  const feedback = useFormFeedback('profile.notifications.invalid');

  const onSubmit = (values: Values, helpers: FormikHelpers<Values>) =>
    feedback.submit(helpers, async () => {
      const saved = await update.mutateAsync({ language: values.language, email_alert_kinds: values.kinds });
      helpers.resetForm({ values: valuesOf(saved) });
      toast.success({ id: 'profile.notifications.saved' });
    });

  return (
    <Card component="section" aria-labelledby="notification-settings-title">
      <CardContent>
        <Typography id="notification-settings-title" variant="h6" component="h2" gutterBottom>
          {intl.formatMessage({ id: 'profile.notifications.title' })}
        </Typography>
        {settings.isPending && <PagePending />}
        {settings.isError && <PageError />}
        {settings.data && (
          <Formik initialValues={valuesOf(settings.data)} enableReinitialize onSubmit={onSubmit}>
            {({ values, setFieldValue, isSubmitting }) => (
              <Form noValidate aria-label={intl.formatMessage({ id: 'profile.notifications.title' })}>
                <UnsavedChangesGuard />
                <FormControl component="fieldset" sx={{ mb: 2 }}>
                  <FormLabel component="legend">
                    {intl.formatMessage({ id: 'profile.notifications.kinds' })}
                  </FormLabel>
                  <FormGroup>
                    {settings.data.available_kinds.map((kind) => (
                      <FormControlLabel
                        key={kind}
                        label={intl.formatMessage({ id: `alerts.kind.${kind}` })}
                        control={
                          <Checkbox
                            name="kinds"
                            value={kind}
                            checked={values.kinds.includes(kind)}
                            onChange={(event) =>
                              void setFieldValue(
                                'kinds',
                                event.target.checked
                                  ? [...values.kinds, kind]
                                  : values.kinds.filter((chosen) => chosen !== kind),
                              )
                            }
                          />
                        }
                      />
                    ))}
                  </FormGroup>
                </FormControl>
                <TextField
                  select
                  fullWidth
                  name="language"
                  label={intl.formatMessage({ id: 'profile.notifications.language' })}
                  value={values.language}
                  onChange={(event) => void setFieldValue('language', event.target.value)}
                >
                  {MAIL_LANGUAGES.map((language) => (
                    <MenuItem key={language} value={language}>
                      {intl.formatMessage({ id: `profile.notifications.language.${language}` })}
                    </MenuItem>
                  ))}
                </TextField>
                <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
                  <FormDisabledReason busy={isSubmitting} requireChanges>
                    <Button
                      type="submit"
                      variant="contained"
                      startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
                    >
                      {intl.formatMessage({ id: 'profile.notifications.save' })}
                    </Button>
                  </FormDisabledReason>
                </Box>
              </Form>
            )}
          </Formik>
        )}
      </CardContent>
    </Card>
  );
}
