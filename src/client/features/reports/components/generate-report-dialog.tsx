import {
  Dialog,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import { Form, Formik, type FormikHelpers, useFormikContext } from 'formik';
import { useIntl } from 'react-intl';
import { object, string } from 'yup';
import { DayPicker } from '#client/components/date-field.tsx';
import { DialogButtons } from '#client/components/dialog-buttons.tsx';
import { dayFromIso, isoFromDay } from '#client/lib/dates.ts';
import { InvalidSubmitNotifier, useFormFeedback } from '#client/lib/form-fields.tsx';
import { translateValidation, useLocale } from '#client/lib/intl.tsx';
import { toast } from '#client/lib/toasts.tsx';
import { type GenerateReportValues, useGenerateReport } from '../api/reports';
import { REPORT_LANGUAGES } from '../search';

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const schema = object({
  from: string().required('validation.report.from.invalid').matches(DAY, 'validation.report.from.invalid'),
  to: string()
    .required('validation.report.to.invalid')
    .matches(DAY, 'validation.report.to.invalid')
    .test('after-from', 'validation.report.to.before_from', function notBefore(value) {
      const from = (this.parent as { from?: string }).from;
      return !value || !from || value >= from;
    }),
  language: string().oneOf([...REPORT_LANGUAGES], 'validation.report.language.invalid'),
});

/** The previous calendar month (UTC), the period a report usually covers. */
export function previousMonth(now = new Date()): { from: string; to: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0));
  return { from: first.toISOString().slice(0, 10), to: last.toISOString().slice(0, 10) };
}

function DayField({ name, labelId }: { name: 'from' | 'to'; labelId: string }) {
  const intl = useIntl();
  const { values, errors, touched, submitCount, setFieldValue, setFieldTouched } =
    useFormikContext<GenerateReportValues>();
  const error = errors[name];
  const shown = Boolean(error) && (touched[name] || submitCount > 0);
  return (
    <DayPicker
      label={intl.formatMessage({ id: labelId })}
      value={dayFromIso(values[name])}
      onChange={(date) => {
        void setFieldValue(name, isoFromDay(date) ?? '');
        void setFieldTouched(name, true, false);
      }}
      textField={{
        name,
        id: `report-${name}`,
        fullWidth: true,
        required: true,
        error: shown,
        helperText:
          shown && error
            ? translateValidation(intl, error)
            : intl.formatMessage({ id: 'reports.generate.utc' }),
      }}
    />
  );
}

/** Generate a report: the period (a calendar month by default) and the reader's language. */
export function GenerateReportDialog({
  customerId,
  open,
  onClose,
}: {
  customerId: number;
  open: boolean;
  onClose: () => void;
}) {
  const intl = useIntl();
  const locale = useLocale();
  const generate = useGenerateReport(customerId);
  const feedback = useFormFeedback('reports.generate.invalid');
  const initialValues: GenerateReportValues = { ...previousMonth(), language: locale === 'it' ? 'it' : 'en' };

  const onSubmit = (values: GenerateReportValues, helpers: FormikHelpers<GenerateReportValues>) =>
    feedback.submit(helpers, async () => {
      await generate.mutateAsync(values);
      toast.success({ id: 'reports.generated' });
      onClose();
    });

  return (
    <Dialog
      open={open}
      onClose={generate.isPending ? undefined : onClose}
      aria-labelledby="report-generate-title"
      fullWidth
      maxWidth="xs"
    >
      <Formik initialValues={initialValues} validationSchema={schema} onSubmit={onSubmit}>
        {({ values, handleChange, isSubmitting }) => (
          <Form noValidate aria-label={intl.formatMessage({ id: 'reports.generate.title' })}>
            <InvalidSubmitNotifier feedback={feedback} />
            <DialogTitle id="report-generate-title">
              {intl.formatMessage({ id: 'reports.generate.title' })}
            </DialogTitle>
            <DialogContent>
              <DialogContentText sx={{ mb: 2 }}>
                {intl.formatMessage({ id: 'reports.generate.text' })}
              </DialogContentText>
              <Stack spacing={2}>
                <DayField name="from" labelId="reports.generate.from" />
                <DayField name="to" labelId="reports.generate.to" />
                <TextField
                  select
                  id="report-language"
                  name="language"
                  label={intl.formatMessage({ id: 'reports.generate.language' })}
                  value={values.language}
                  onChange={handleChange}
                >
                  {REPORT_LANGUAGES.map((language) => (
                    <MenuItem key={language} value={language}>
                      {intl.formatMessage({ id: `reports.language.${language}` })}
                    </MenuItem>
                  ))}
                </TextField>
              </Stack>
            </DialogContent>
            <DialogButtons confirmLabelId="reports.generate.submit" busy={isSubmitting} onCancel={onClose} />
          </Form>
        )}
      </Formik>
    </Dialog>
  );
}
