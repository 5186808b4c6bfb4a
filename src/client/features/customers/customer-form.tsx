import { Box, Button, Card, CardContent, CircularProgress, Grid } from '@mui/material';
import { Form, Formik, type FormikHelpers } from 'formik';
import { useIntl } from 'react-intl';
import { UnsavedChangesGuard } from '#client/components/unsaved-changes.tsx';
import { trimValues } from '#client/lib/form-data.ts';
import {
  FormikCheckbox,
  FormikTextField,
  InvalidSubmitNotifier,
  ReadOnlyFields,
  useFormFeedback,
} from '#client/lib/form-fields.tsx';
import { customerSchema } from '#shared/validation/index.ts';
import type { CustomerData, CustomerFormValues } from './api/customers';
import { CountrySelect } from './country-select';

export function customerFormValues(customer: CustomerData | undefined): CustomerFormValues {
  return {
    name: customer?.name ?? '',
    address: customer?.address ?? '',
    postcode: customer?.postcode ?? '',
    city: customer?.city ?? '',
    country: customer?.country ?? '',
    email: customer?.email ?? '',
    phone: customer?.phone ?? '',
    referrer: customer?.referrer ?? '',
    enable_blockchain: customer?.enable_blockchain ? '1' : '0',
    alert_device_silent_hours: customer?.alert_device_silent_hours?.toString() ?? '',
    alert_lamp_life_threshold: customer?.alert_lamp_life_threshold?.toString() ?? '',
  };
}

/** The anagraphic form (docs/product.md §2 Customer page): every field; Save only with canCreateCustomers. */
export function CustomerForm({
  customer,
  canSave,
  onSave,
}: {
  customer: CustomerData | undefined;
  canSave: boolean;
  onSave: (values: CustomerFormValues) => Promise<void>;
}) {
  const intl = useIntl();
  const readOnly = !canSave;
  const initialValues = customerFormValues(customer);

  const feedback = useFormFeedback('customers.form.invalid');
  const onSubmit = (values: CustomerFormValues, helpers: FormikHelpers<CustomerFormValues>) =>
    feedback.submit(helpers, () => onSave(trimValues(values)));

  const text = (
    name: keyof CustomerFormValues,
    extra: { type?: string; required?: boolean; helperId?: string } = {},
  ) => <FormikTextField name={name} labelId={`fields.${name}`} {...extra} />;

  return (
    <Card>
      <CardContent>
        <Formik
          initialValues={initialValues}
          validationSchema={customerSchema}
          enableReinitialize
          onSubmit={onSubmit}
        >
          {({ isSubmitting }) => (
            <Form noValidate aria-label={intl.formatMessage({ id: 'customers.form.label' })}>
              <InvalidSubmitNotifier feedback={feedback} />
              <UnsavedChangesGuard />
              <ReadOnlyFields when={readOnly}>
                <Grid container columnSpacing={2}>
                  <Grid size={{ xs: 12, md: 6 }}>{text('name', { required: true })}</Grid>
                  <Grid size={{ xs: 12, md: 6 }}>{text('email', { type: 'email' })}</Grid>
                  <Grid size={{ xs: 12, md: 6 }}>{text('address')}</Grid>
                  <Grid size={{ xs: 12, md: 6 }}>{text('city')}</Grid>
                  <Grid size={{ xs: 12, md: 6 }}>{text('postcode')}</Grid>
                  <Grid size={{ xs: 12, md: 6 }}>
                    <CountrySelect name="country" />
                  </Grid>
                  <Grid size={{ xs: 12, md: 6 }}>{text('phone', { type: 'tel' })}</Grid>
                  <Grid size={{ xs: 12, md: 6 }}>{text('referrer')}</Grid>
                  <Grid size={12}>
                    <FormikCheckbox name="enable_blockchain" labelId="customers.form.enable_blockchain" />
                  </Grid>
                  <Grid size={{ xs: 12, md: 6 }}>
                    {text('alert_device_silent_hours', {
                      type: 'number',
                      helperId: 'customers.form.alert_default_hint',
                    })}
                  </Grid>
                  <Grid size={{ xs: 12, md: 6 }}>
                    {text('alert_lamp_life_threshold', {
                      type: 'number',
                      helperId: 'customers.form.alert_default_hint',
                    })}
                  </Grid>
                </Grid>
              </ReadOnlyFields>
              {canSave && (
                <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
                  <Button
                    type="submit"
                    variant="contained"
                    disabled={isSubmitting}
                    startIcon={isSubmitting ? <CircularProgress size={18} color="inherit" /> : undefined}
                  >
                    {intl.formatMessage({ id: 'customers.form.save' })}
                  </Button>
                </Box>
              )}
            </Form>
          )}
        </Formik>
      </CardContent>
    </Card>
  );
}
