import ArrowBack from '@mui/icons-material/ArrowBack';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CardHeader,
  LinearProgress,
  Stack,
  Typography,
} from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { isValid } from 'date-fns';
import { Form, Formik, type FormikHelpers, useField, useFormikContext } from 'formik';
import { useIntl } from 'react-intl';
import { DayPicker } from '#client/components/date-field.tsx';
import { FormDisabledReason } from '#client/components/disabled-reason.tsx';
import { ButtonLink } from '#client/components/router-link.tsx';
import { UnsavedChangesGuard } from '#client/components/unsaved-changes.tsx';
import { dayFromIso, isoFromDay } from '#client/lib/dates.ts';
import {
  FormikTextField,
  InvalidSubmitNotifier,
  initialErrorsFor,
  useFormFeedback,
} from '#client/lib/form-fields.tsx';
import { translateValidation } from '#client/lib/intl.tsx';
import { useAbilities } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import { certificateUploadSchema } from '#shared/validation/index.ts';
import { type CertificateUploadValues, useUploadCertificate } from './api/certificates';
import { PdfDropzone } from './components/pdf-dropzone';

type FormValues = Omit<CertificateUploadValues, 'italian_file'> & { italian_file: File | null };

/** The expiration date: the shared DayPicker, whose form value is YYYY-MM-DD. */
function ExpirationDateField({ name, labelId }: { name: string; labelId: string }) {
  const intl = useIntl();
  const [field, meta, helpers] = useField<string>(name);
  const { submitCount } = useFormikContext();
  const showError = Boolean(meta.error) && (meta.touched || submitCount > 0);
  return (
    <DayPicker
      label={intl.formatMessage({ id: labelId })}
      value={dayFromIso(field.value)}
      onChange={(date) => {
        // A cleared or half-typed date leaves the field empty, so the form is invalid until it is complete.
        void helpers.setValue(date && isValid(date) ? (isoFromDay(date) ?? '') : '', true);
        void helpers.setTouched(true, false);
      }}
      textField={{
        name,
        id: `field-${name}`,
        required: true,
        fullWidth: true,
        margin: 'normal',
        error: showError,
        onBlur: () => void helpers.setTouched(true),
        helperText: showError && meta.error ? translateValidation(intl, meta.error) : undefined,
      }}
    />
  );
}

const today = () => isoFromDay(new Date()) ?? '';

/** docs/product.md §2 Certificate upload. */
export function CertificateUploadPage() {
  const intl = useIntl();
  const navigate = useNavigate();
  const abilities = useAbilities();
  const canUpload = abilities.canUploadCertificates === true;
  const upload = useUploadCertificate();

  const initialValues: FormValues = {
    lot_number: '',
    validated_treatment_number: '',
    expiration_date: today(),
    italian_file: null,
  };

  const feedback = useFormFeedback('certificates.upload.invalid');
  const onSubmit = async (values: FormValues, helpers: FormikHelpers<FormValues>) => {
    const file = values.italian_file;
    if (!file) return;
    await feedback.submit(helpers, async () => {
      await upload.mutateAsync({
        lot_number: values.lot_number.trim(),
        validated_treatment_number: values.validated_treatment_number.trim(),
        expiration_date: values.expiration_date,
        italian_file: file,
      });
      toast.success({ id: 'certificates.uploaded' });
      await navigate({ to: '/certificates' });
    });
  };

  return (
    <Stack spacing={2} sx={{ maxWidth: 720 }}>
      <Box>
        <ButtonLink to="/certificates" startIcon={<ArrowBack />} size="small">
          {intl.formatMessage({ id: 'certificates.upload.back' })}
        </ButtonLink>
      </Box>
      <Typography variant="h4" component="h1">
        {intl.formatMessage({ id: 'certificates.upload.title' })}
      </Typography>
      <Card>
        <CardHeader
          title={intl.formatMessage({ id: 'certificates.upload.card' })}
          slotProps={{ title: { variant: 'h6', component: 'h2' } }}
        />
        <CardContent sx={{ pt: 0 }}>
          {upload.isPending ? (
            <Box sx={{ py: 4 }} role="status" aria-live="polite">
              <Typography variant="body1" sx={{ mb: 2 }}>
                {intl.formatMessage({ id: 'certificates.upload.uploading' })}
              </Typography>
              <LinearProgress aria-label={intl.formatMessage({ id: 'certificates.upload.uploading' })} />
            </Box>
          ) : null}
          <Formik<FormValues>
            initialValues={initialValues}
            validationSchema={certificateUploadSchema}
            initialErrors={initialErrorsFor(certificateUploadSchema, initialValues)}
            validateOnMount
            onSubmit={onSubmit}
          >
            {({ isSubmitting }) => (
              // Hidden, not unmounted, while uploading: a failed upload shows the same values again.
              <Form
                noValidate
                aria-label={intl.formatMessage({ id: 'certificates.upload.form' })}
                hidden={upload.isPending}
                style={upload.isPending ? { display: 'none' } : undefined}
              >
                <InvalidSubmitNotifier feedback={feedback} />
                <UnsavedChangesGuard />
                <FormikTextField
                  name="lot_number"
                  labelId="certificates.upload.lot_number"
                  helperId="certificates.upload.lot_number.example"
                  placeholder="092695"
                  autoComplete="off"
                  required
                  autoFocus
                />
                <FormikTextField
                  name="validated_treatment_number"
                  labelId="certificates.upload.validated_treatment_number"
                  helperId="certificates.upload.validated_treatment_number.example"
                  placeholder="31333"
                  autoComplete="off"
                  required
                />
                <ExpirationDateField name="expiration_date" labelId="certificates.upload.expiration_date" />
                <PdfDropzone name="italian_file" labelId="certificates.upload.file" />
                <Alert severity="info" icon={<InfoOutlined />} sx={{ mt: 2 }}>
                  {intl.formatMessage({ id: 'certificates.upload.note' })}
                </Alert>
                {canUpload ? (
                  <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 3 }}>
                    <FormDisabledReason busy={isSubmitting || upload.isPending}>
                      <Button type="submit" variant="contained">
                        {intl.formatMessage({ id: 'certificates.upload.submit' })}
                      </Button>
                    </FormDisabledReason>
                  </Box>
                ) : (
                  <Alert severity="warning" sx={{ mt: 2 }}>
                    {intl.formatMessage({ id: 'certificates.upload.not_allowed' })}
                  </Alert>
                )}
              </Form>
            )}
          </Formik>
        </CardContent>
      </Card>
    </Stack>
  );
}
