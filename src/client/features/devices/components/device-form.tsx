import SaveIcon from '@mui/icons-material/Save';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import { Box, Button, Card, CardContent, CircularProgress, MenuItem, Stack } from '@mui/material';
import { Form, Formik, type FormikHelpers, useFormikContext } from 'formik';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { UnsavedChangesGuard } from '#client/components/unsaved-changes.tsx';
import {
  FormikTextField,
  InvalidSubmitNotifier,
  initialErrorsFor,
  ReadOnlyFields,
  useFormFeedback,
} from '#client/lib/form-fields.tsx';
import { useProductOptions } from '#client/lib/reference-lists.ts';
import { notifyApiError } from '#client/lib/toasts.tsx';
import type { Device, DeviceForm as DeviceFormBody, Product } from '#shared/api/index.ts';
import { deviceSchema } from '#shared/validation/index.ts';
import { generateDeviceKeyPair, signTestToken, type TestToken } from '../device-keys';
import type { KeySlot, PrivateKeys } from '../private-key-handoff';
import { KeySlotPanel } from './key-slot';

export type DeviceFormValues = {
  device_serial: string;
  label: string;
  product_id: string;
  public_key: string;
  public_key_2: string;
};

const PUBLIC_KEY_FIELD = { 1: 'public_key', 2: 'public_key_2' } as const;

export function deviceFormValues(device: Device | undefined): DeviceFormValues {
  return {
    device_serial: device?.device_serial ?? '',
    label: device?.label ?? '',
    product_id: device ? String(device.product_id) : '',
    public_key: device?.public_key ?? '',
    public_key_2: device?.public_key_2 ?? '',
  };
}

/** The body of a save: the form's fields only — private keys are not form values and never leave the page. */
function bodyOf(values: DeviceFormValues): DeviceFormBody {
  return {
    device_serial: values.device_serial,
    label: values.label,
    product_id: values.product_id,
    public_key: values.public_key,
    public_key_2: values.public_key_2,
  };
}

type ProductOption = Pick<Product, 'id' | 'name' | 'type'>;

/** Active products, plus the device's own one even when the user may not list products or it is disabled. */
function productOptions(
  products: readonly Product[] | undefined,
  device: Device | undefined,
): ProductOption[] {
  const options: ProductOption[] = (products ?? []).filter(
    (product) => product.deleted_at === null || product.id === device?.product_id,
  );
  if (device && !options.some((option) => option.id === device.product_id)) {
    options.push({ id: device.product_id, name: device.product.name, type: device.product.type });
  }
  return options;
}

function ProductSelect({ options, disabled }: { options: ProductOption[]; disabled: boolean }) {
  const intl = useIntl();
  return (
    <FormikTextField name="product_id" labelId="fields.product_id" select required disabled={disabled}>
      {options.map((option) => (
        <MenuItem key={option.id} value={String(option.id)}>
          {intl.formatMessage({ id: `products.type.${option.type}` })}
        </MenuItem>
      ))}
    </FormikTextField>
  );
}

type KeySlots = Record<KeySlot, { generating: boolean; signing: boolean; token?: TestToken }>;
const IDLE: KeySlots = { 1: { generating: false, signing: false }, 2: { generating: false, signing: false } };

function KeySlots({
  device,
  privateKeys,
  setPrivateKeys,
}: {
  device: Device | undefined;
  privateKeys: PrivateKeys;
  setPrivateKeys: (update: (keys: PrivateKeys) => PrivateKeys) => void;
}) {
  const { values, setFieldValue } = useFormikContext<DeviceFormValues>();
  const [slots, setSlots] = useState<KeySlots>(IDLE);
  const patch = (slot: KeySlot, change: Partial<KeySlots[KeySlot]>) =>
    setSlots((current) => ({ ...current, [slot]: { ...current[slot], ...change } }));

  const generate = async (slot: KeySlot) => {
    patch(slot, { generating: true });
    try {
      const pair = await generateDeviceKeyPair();
      await setFieldValue(PUBLIC_KEY_FIELD[slot], pair.publicKey);
      setPrivateKeys((keys) => ({ ...keys, [slot]: pair.privateKey }));
      // A token of the previous key would no longer verify.
      patch(slot, { generating: false, token: undefined });
    } catch (error) {
      patch(slot, { generating: false });
      notifyApiError(error);
    }
  };

  const sign = async (slot: KeySlot) => {
    const privateKey = privateKeys[slot];
    if (!privateKey) return;
    patch(slot, { signing: true });
    try {
      const token = await signTestToken(values.device_serial.trim(), privateKey);
      patch(slot, { signing: false, token });
    } catch (error) {
      patch(slot, { signing: false });
      notifyApiError(error);
    }
  };

  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      {([1, 2] as const).map((slot) => {
        const field = PUBLIC_KEY_FIELD[slot];
        return (
          <KeySlotPanel
            key={slot}
            slot={slot}
            privateKey={privateKeys[slot]}
            unsaved={Boolean(values[field]) && values[field] !== (device?.[field] ?? '')}
            generating={slots[slot].generating}
            onGenerate={() => void generate(slot)}
            testToken={slots[slot].token}
            signing={slots[slot].signing}
            onSignTestToken={() => void sign(slot)}
          />
        );
      })}
    </Stack>
  );
}

type DeviceFormProps = {
  /** The stored device; undefined for a new one. */
  device: Device | undefined;
  /** Saves the body; rejects with the ApiError of a refusal. */
  onSave: (body: DeviceFormBody) => Promise<unknown>;
  saving: boolean;
  /** The user may save this form (canCreateDevices for a new device, canUpdateDevices otherwise). */
  canSave: boolean;
  privateKeys: PrivateKeys;
  setPrivateKeys: (update: (keys: PrivateKeys) => PrivateKeys) => void;
  /** Shown for a stored device with canAssignDeviceToDifferentCustomer. */
  onAssign?: () => void;
};

/**
 * docs/product.md §2 device edit: serial, label, type, the two key slots, Save and Assign. Read-only (type
 * disabled) without the right to save.
 */
export function DeviceForm({
  device,
  onSave,
  saving,
  canSave,
  privateKeys,
  setPrivateKeys,
  onAssign,
}: DeviceFormProps) {
  const intl = useIntl();
  const products = useProductOptions(canSave);
  const initialValues = deviceFormValues(device);
  const readOnly = !canSave;

  const feedback = useFormFeedback('devices.form.invalid');
  const onSubmit = (values: DeviceFormValues, helpers: FormikHelpers<DeviceFormValues>) =>
    feedback.submit(helpers, async () => {
      await onSave(bodyOf(values));
    });

  return (
    <Card>
      <CardContent>
        <Formik
          initialValues={initialValues}
          initialErrors={initialErrorsFor(deviceSchema, initialValues)}
          validationSchema={deviceSchema}
          enableReinitialize
          onSubmit={onSubmit}
        >
          {({ isSubmitting }) => (
            <Form noValidate aria-label={intl.formatMessage({ id: 'devices.form.label' })}>
              <InvalidSubmitNotifier feedback={feedback} />
              <UnsavedChangesGuard />
              <ReadOnlyFields when={readOnly}>
                <Box
                  sx={{
                    display: 'grid',
                    gap: { md: 2 },
                    gridTemplateColumns: { xs: '1fr', md: '1fr 2fr 1fr' },
                  }}
                >
                  <FormikTextField
                    name="device_serial"
                    labelId="fields.device_serial"
                    required
                    slotProps={{ htmlInput: { maxLength: 8 } }}
                  />
                  <FormikTextField name="label" labelId="fields.label" required />
                  <ProductSelect options={productOptions(products.data?.data, device)} disabled={readOnly} />
                </Box>
                <KeySlots device={device} privateKeys={privateKeys} setPrivateKeys={setPrivateKeys} />
              </ReadOnlyFields>
              <Stack
                direction="row"
                spacing={1}
                sx={{ mt: 3, justifyContent: 'flex-end', flexWrap: 'wrap', rowGap: 1 }}
              >
                {onAssign && (
                  <Button variant="outlined" onClick={onAssign} startIcon={<SwapHorizIcon />}>
                    {intl.formatMessage({ id: 'devices.assign.open' })}
                  </Button>
                )}
                {canSave && (
                  <Button
                    type="submit"
                    variant="contained"
                    disabled={isSubmitting || saving}
                    startIcon={saving ? <CircularProgress size={18} color="inherit" /> : <SaveIcon />}
                  >
                    {intl.formatMessage({ id: 'devices.form.save' })}
                  </Button>
                )}
              </Stack>
            </Form>
          )}
        </Formik>
      </CardContent>
    </Card>
  );
}
