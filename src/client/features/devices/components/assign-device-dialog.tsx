import {
  Alert,
  Autocomplete,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { ApiError } from '#client/lib/api-client.ts';
import { translateServerMessage } from '#client/lib/intl.tsx';
import { useCustomerOptions } from '#client/lib/reference-lists.ts';
import { notifyApiError } from '#client/lib/toasts.tsx';
import type { Device, Option } from '#shared/api/index.ts';
import { useAssignDevice } from '../api/devices';

const SAME_CUSTOMER = 'devices.assign.same_customer';

/** The message id of a refusal the dialog shows itself (422 on customerId), else null. */
function refusalOf(error: unknown): string | null {
  if (!(error instanceof ApiError) || error.message !== 'validation_error') return null;
  const data = error.data as { customerId?: unknown } | null;
  const first: unknown = Array.isArray(data?.customerId) ? data.customerId[0] : undefined;
  return typeof first === 'string' ? first : null;
}

type Props = {
  open: boolean;
  device: Device;
  onClose: () => void;
  onAssigned: (device: Device) => void;
};

/**
 * docs/product.md §2 "Assign to another customer": pick a customer from the full list (loaded once), refuse
 * the device's own customer with "This device is already of the selected customer".
 */
export function AssignDeviceDialog({ open, device, onClose, onAssigned }: Props) {
  const intl = useIntl();
  const customers = useCustomerOptions(open);
  const assign = useAssignDevice(device.id);
  const [selected, setSelected] = useState<Option | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const close = () => {
    setSelected(null);
    setRefusal(null);
    assign.reset();
    onClose();
  };

  const submit = async () => {
    if (!selected) return;
    if (selected.id === device.customer_id) {
      setRefusal(SAME_CUSTOMER);
      return;
    }
    try {
      const moved = await assign.mutateAsync(selected.id);
      setSelected(null);
      setRefusal(null);
      onAssigned(moved);
    } catch (error) {
      const id = refusalOf(error);
      if (id) setRefusal(id);
      else notifyApiError(error);
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="assign-device-title">
      <DialogTitle id="assign-device-title">{intl.formatMessage({ id: 'devices.assign.title' })}</DialogTitle>
      <DialogContent>
        <Autocomplete
          options={customers.data ?? []}
          loading={customers.isPending}
          value={selected}
          onChange={(_event, value) => {
            setSelected(value);
            setRefusal(null);
          }}
          getOptionLabel={(option) => `${option.name} (${option.id})`}
          isOptionEqualToValue={(option, value) => option.id === value.id}
          renderInput={(params) => (
            <TextField
              {...params}
              margin="normal"
              autoFocus
              label={intl.formatMessage({ id: 'devices.assign.customer' })}
              slotProps={{
                ...params.slotProps,
                input: {
                  ...params.slotProps.input,
                  endAdornment: (
                    <>
                      {customers.isPending && open ? <CircularProgress size={18} /> : null}
                      {params.slotProps.input.endAdornment}
                    </>
                  ),
                },
              }}
            />
          )}
        />
        {refusal && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {translateServerMessage(intl, refusal) ?? intl.formatMessage({ id: 'errors.generic' })}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{intl.formatMessage({ id: 'devices.assign.cancel' })}</Button>
        <Button
          variant="contained"
          onClick={() => void submit()}
          disabled={!selected || assign.isPending}
          startIcon={assign.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
        >
          {intl.formatMessage({ id: 'devices.assign.confirm' })}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
