import {
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from '@mui/material';
import { Form, Formik } from 'formik';
import { useIntl } from 'react-intl';
import { FormikTextField } from '#client/lib/form-fields.tsx';
import { toast } from '#client/lib/toasts.tsx';
import type { Alert } from '#shared/api/index.ts';
import { alertActionSchema } from '#shared/validation/index.ts';
import { type AlertAction, useAlertAction } from '../api/alerts';
import { alertSummary } from './alert-summary';

/** Acknowledge or resolve one alert, with an optional comment (the shared schema limits its length). */
export function AlertActionDialog({
  alert,
  action,
  onClose,
}: {
  alert: Alert | null;
  action: AlertAction;
  onClose: () => void;
}) {
  const intl = useIntl();
  const mutation = useAlertAction(action);
  const titleId = `alert-${action}-title`;
  return (
    <Dialog open={alert !== null} onClose={onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      {alert && (
        <Formik
          initialValues={{ comment: '' }}
          validationSchema={alertActionSchema}
          onSubmit={async (values) => {
            try {
              await mutation.mutateAsync({ alertId: alert.id, comment: values.comment.trim() || undefined });
            } catch {
              return; // The query client has shown the server's refusal.
            }
            toast.success({ id: `alerts.${action}.done` });
            onClose();
          }}
        >
          {({ isSubmitting }) => (
            <Form noValidate>
              <DialogTitle id={titleId}>{intl.formatMessage({ id: `alerts.${action}.title` })}</DialogTitle>
              <DialogContent>
                <DialogContentText>{alertSummary(intl, alert)}</DialogContentText>
                <FormikTextField name="comment" labelId="alerts.comment" multiline minRows={2} autoFocus />
              </DialogContent>
              <DialogActions>
                <Button onClick={onClose}>{intl.formatMessage({ id: 'alerts.cancel' })}</Button>
                <Button
                  type="submit"
                  variant="contained"
                  disabled={isSubmitting}
                  startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
                >
                  {intl.formatMessage({ id: `alerts.${action}.confirm` })}
                </Button>
              </DialogActions>
            </Form>
          )}
        </Formik>
      )}
    </Dialog>
  );
}
