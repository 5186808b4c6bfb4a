import {
  Alert,
  Dialog,
  DialogContent,
  DialogContentText,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormHelperText,
  FormLabel,
  Radio,
  RadioGroup,
  Typography,
} from '@mui/material';
import { Form, Formik, type FormikHelpers } from 'formik';
import { useIntl } from 'react-intl';
import { DialogButtons } from '#client/components/dialog-buttons.tsx';
import { FormikTextField, InvalidSubmitNotifier, useFormFeedback } from '#client/lib/form-fields.tsx';
import { translateValidation } from '#client/lib/intl.tsx';
import { passkeyProof } from '#client/lib/passkeys.ts';
import { useSession } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import { reportSignSchema } from '#shared/validation/index.ts';
import { type Report, type SignReportValues, useSignerSecondFactor, useSignReport } from '../api/reports';

const MEANINGS = ['reviewed', 'approved'] as const;

/**
 * The electronic signature (21 CFR Part 11): the signer enters their password again (§11.200), says
 * what the signature means and may comment; the server prints the manifestation on every page (§11.50)
 * and stores the signed PDF unchangeable, linked to the signature (§11.70).
 */
export function SignReportDialog({
  customerId,
  report,
  onClose,
}: {
  customerId: number;
  report: Report | null;
  onClose: () => void;
}) {
  const intl = useIntl();
  const session = useSession();
  const sign = useSignReport(customerId);
  const feedback = useFormFeedback('reports.sign.invalid');
  const reviewed = report?.status === 'reviewed';
  const initialValues: SignReportValues = {
    password: '',
    meaning: reviewed ? 'approved' : 'reviewed',
    comment: '',
    code: '',
  };
  const signer = useSignerSecondFactor(report !== null);
  // Without an app, one of the signer's passkeys confirms the signature (its browser dialog on Sign).
  const withPasskey = signer.data?.totp === false && signer.data.passkeys > 0;

  const onSubmit = (values: SignReportValues, helpers: FormikHelpers<SignReportValues>) =>
    feedback.submit(helpers, async () => {
      if (!report) return;
      const passkey = withPasskey ? await passkeyProof() : undefined;
      await sign.mutateAsync({
        reportId: report.id,
        ...values,
        comment: values.comment.trim(),
        ...(passkey ? { passkey } : {}),
      });
      toast.success({ id: 'reports.signed' });
      onClose();
    });

  return (
    <Dialog
      open={report !== null}
      onClose={sign.isPending ? undefined : onClose}
      aria-labelledby="report-sign-title"
      fullWidth
      maxWidth="sm"
    >
      {report && (
        <Formik initialValues={initialValues} validationSchema={reportSignSchema} onSubmit={onSubmit}>
          {({ values, errors, submitCount, handleChange, isSubmitting }) => (
            <Form noValidate aria-label={intl.formatMessage({ id: 'reports.sign.title' })}>
              <InvalidSubmitNotifier feedback={feedback} />
              <DialogTitle id="report-sign-title">
                {intl.formatMessage({ id: 'reports.sign.title' })}
              </DialogTitle>
              <DialogContent>
                <DialogContentText>
                  {intl.formatMessage(
                    { id: 'reports.sign.text' },
                    {
                      id: report.id,
                      from: report.period_from,
                      to: report.period_to,
                      name: session?.user.name ?? '',
                    },
                  )}
                </DialogContentText>
                <Alert severity="info" sx={{ mt: 2 }}>
                  {intl.formatMessage({ id: 'reports.sign.binding' })}
                </Alert>
                <FormControl sx={{ mt: 2 }} error={Boolean(errors.meaning) && submitCount > 0}>
                  <FormLabel id="report-sign-meaning">
                    {intl.formatMessage({ id: 'reports.sign.meaning' })}
                  </FormLabel>
                  <RadioGroup
                    row
                    aria-labelledby="report-sign-meaning"
                    name="meaning"
                    value={values.meaning}
                    onChange={handleChange}
                  >
                    {MEANINGS.map((meaning) => (
                      <FormControlLabel
                        key={meaning}
                        value={meaning}
                        control={<Radio />}
                        label={intl.formatMessage({ id: `reports.meaning.${meaning}` })}
                      />
                    ))}
                  </RadioGroup>
                  {errors.meaning && submitCount > 0 && (
                    <FormHelperText>{translateValidation(intl, errors.meaning)}</FormHelperText>
                  )}
                </FormControl>
                <FormikTextField name="comment" labelId="reports.sign.comment" multiline minRows={2} />
                <FormikTextField
                  name="password"
                  labelId="reports.sign.password"
                  type="password"
                  autoComplete="current-password"
                  required
                />
                {signer.data?.totp && (
                  <FormikTextField
                    name="code"
                    labelId="second_factor.code"
                    helperId="second_factor.code.help"
                    autoComplete="one-time-code"
                    required
                  />
                )}
                {withPasskey && (
                  <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                    {intl.formatMessage({ id: 'reports.sign.passkey' })}
                  </Typography>
                )}
              </DialogContent>
              <DialogButtons confirmLabelId="reports.sign.submit" busy={isSubmitting} onCancel={onClose} />
            </Form>
          )}
        </Formik>
      )}
    </Dialog>
  );
}
