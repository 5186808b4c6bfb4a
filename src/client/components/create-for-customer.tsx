/**
 * A top-level list's Create button (users, devices): what it creates belongs to a customer, so a dialog
 * asks which one, then opens that customer's own creation form (the same form as from the customer's
 * page). Shown only to whoever may create; the server checks again.
 */
import AddIcon from '@mui/icons-material/Add';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
} from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { useIntl } from 'react-intl';
import { useCustomerOptions } from '#client/lib/reference-lists.ts';

export function CreateForCustomerButton({
  labelId,
  target,
}: {
  /** The button's text (e.g. "New user"). */
  labelId: string;
  target: 'users' | 'devices';
}) {
  const intl = useIntl();
  const navigate = useNavigate();
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [customerId, setCustomerId] = useState<number | ''>('');
  const customers = useCustomerOptions(open);
  const choices = customers.data ?? [];

  const proceed = () => {
    if (customerId === '') return;
    setOpen(false);
    const params = { id: customerId };
    if (target === 'users') void navigate({ to: '/customers/$id/users/new', params });
    else void navigate({ to: '/customers/$id/devices/new', params });
  };

  return (
    <>
      <Button variant="contained" startIcon={<AddIcon />} onClick={() => setOpen(true)}>
        {intl.formatMessage({ id: labelId })}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby={titleId} fullWidth maxWidth="xs">
        <DialogTitle id={titleId}>{intl.formatMessage({ id: labelId })}</DialogTitle>
        <DialogContent>
          <TextField
            select
            fullWidth
            margin="dense"
            label={intl.formatMessage({ id: `lists.create_for_customer.${target}` })}
            value={customerId}
            onChange={(event) => setCustomerId(Number(event.target.value))}
            helperText={intl.formatMessage({ id: 'lists.create_for_customer.help' })}
          >
            {choices.map((customer) => (
              <MenuItem key={customer.id} value={customer.id}>
                {customer.name}
              </MenuItem>
            ))}
          </TextField>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{intl.formatMessage({ id: 'common.cancel' })}</Button>
          <Button variant="contained" onClick={proceed} disabled={customerId === ''}>
            {intl.formatMessage({ id: 'common.continue' })}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
