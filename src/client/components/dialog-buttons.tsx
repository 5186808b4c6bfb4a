import { Button, CircularProgress, DialogActions } from '@mui/material';
import { useIntl } from 'react-intl';

/**
 * A dialog's Cancel and confirm buttons: both disabled while the action runs, the confirm one then
 * showing a spinner. Without `onConfirm` the confirm button submits the dialog's form.
 */
export function DialogButtons({
  confirmLabelId,
  busy,
  onCancel,
  onConfirm,
  color,
}: {
  /** Message id of the confirm button. */
  confirmLabelId: string;
  busy: boolean;
  onCancel: () => void;
  onConfirm?: () => void;
  color?: 'primary' | 'error';
}) {
  const intl = useIntl();
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={busy}>
        {intl.formatMessage({ id: 'common.cancel' })}
      </Button>
      <Button
        type={onConfirm ? 'button' : 'submit'}
        color={color}
        variant="contained"
        onClick={onConfirm}
        disabled={busy}
        startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}
      >
        {intl.formatMessage({ id: confirmLabelId })}
      </Button>
    </DialogActions>
  );
}
