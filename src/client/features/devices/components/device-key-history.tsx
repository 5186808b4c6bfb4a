/**
 * The device page's key history: every registration, replacement, removal and revocation of its two
 * key slots, with the key's thumbprint and when it took effect (docs/integrity.md, "Key history"). The
 * key manager may revoke a key in force, with a reason.
 */
import VpnKey from '@mui/icons-material/VpnKey';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogContent,
  DialogTitle,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
} from '@mui/material';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { DialogButtons } from '#client/components/dialog-buttons.tsx';
import { ListPanel } from '#client/components/list/index.ts';
import { formatDateTime } from '#client/lib/dates.ts';
import { useAbilities } from '#client/lib/session.ts';
import { toast } from '#client/lib/toasts.tsx';
import type { DeviceKeyEvent } from '#shared/api/index.ts';
import { useDeviceKeyEvents, useRevokeDeviceKey } from '../api/devices';

const mono = {
  fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  fontSize: 12,
} as const;

function RevokeDialog({
  deviceId,
  event,
  onClose,
}: {
  deviceId: number;
  event: DeviceKeyEvent;
  onClose: () => void;
}) {
  const intl = useIntl();
  const revoke = useRevokeDeviceKey(deviceId);
  const [reason, setReason] = useState('');
  const blank = reason.trim() === '';
  return (
    <Dialog open onClose={onClose} aria-labelledby="revoke-key-title" fullWidth maxWidth="sm">
      <Box
        component="form"
        onSubmit={(submitted) => {
          submitted.preventDefault();
          if (blank) return;
          revoke.mutate(
            { slot: event.slot, reason: reason.trim() },
            {
              onSuccess: () => {
                toast.success({ id: 'devices.keys.revoked' });
                onClose();
              },
            },
          );
        }}
      >
        <DialogTitle id="revoke-key-title">
          {intl.formatMessage({ id: 'devices.keys.revoke_title' }, { slot: event.slot })}
        </DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 2 }}>
            {intl.formatMessage({ id: 'devices.keys.revoke_warning' })}
          </Alert>
          <TextField
            autoFocus
            required
            fullWidth
            multiline
            minRows={2}
            name="reason"
            label={intl.formatMessage({ id: 'devices.keys.reason' })}
            value={reason}
            onChange={(change) => setReason(change.target.value)}
            helperText={blank ? intl.formatMessage({ id: 'devices.keys.reason_required' }) : ' '}
            slotProps={{ htmlInput: { maxLength: 1000 } }}
          />
        </DialogContent>
        <DialogButtons
          confirmLabelId="devices.keys.revoke"
          color="error"
          busy={revoke.isPending || blank}
          onCancel={onClose}
        />
      </Box>
    </Dialog>
  );
}

export function DeviceKeyHistory({ deviceId }: { deviceId: number }) {
  const intl = useIntl();
  const canRevoke = useAbilities().canGenerateDeviceKeys === true;
  const query = useDeviceKeyEvents(deviceId);
  const [revoking, setRevoking] = useState<DeviceKeyEvent | null>(null);
  return (
    <ListPanel
      headingId={`device-keys-${deviceId}`}
      icon={<VpnKey color="action" />}
      titleId="devices.key_history.title"
    >
      {query.isPending && <CircularProgress size={24} />}
      {query.isError && <Alert severity="error">{intl.formatMessage({ id: 'devices.keys.error' })}</Alert>}
      {query.data?.length === 0 && (
        <Box sx={{ color: 'text.secondary' }}>{intl.formatMessage({ id: 'devices.keys.empty' })}</Box>
      )}
      {query.data && query.data.length > 0 && (
        <Box sx={{ overflowX: 'auto' }}>
          <Table size="small" data-testid="device-key-history">
            <TableHead>
              <TableRow>
                <TableCell>{intl.formatMessage({ id: 'devices.keys.effective_at' })}</TableCell>
                <TableCell>{intl.formatMessage({ id: 'devices.keys.slot' })}</TableCell>
                <TableCell>{intl.formatMessage({ id: 'devices.keys.action' })}</TableCell>
                <TableCell>{intl.formatMessage({ id: 'devices.keys.thumbprint' })}</TableCell>
                <TableCell>{intl.formatMessage({ id: 'devices.keys.by' })}</TableCell>
                {canRevoke && <TableCell />}
              </TableRow>
            </TableHead>
            <TableBody>
              {query.data.map((event) => (
                <TableRow key={event.id} data-action={event.action}>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(event.effective_at)}</TableCell>
                  <TableCell>{event.slot}</TableCell>
                  <TableCell>
                    {intl.formatMessage({ id: `devices.keys.action.${event.action}` })}
                    {event.in_force && (
                      <Chip
                        size="small"
                        color="success"
                        variant="outlined"
                        sx={{ ml: 1 }}
                        label={intl.formatMessage({ id: 'devices.keys.in_force' })}
                      />
                    )}
                    {event.reason && (
                      <Box component="span" sx={{ display: 'block', color: 'text.secondary' }}>
                        {event.reason}
                      </Box>
                    )}
                  </TableCell>
                  <TableCell sx={{ ...mono, overflowWrap: 'anywhere' }}>{event.thumbprint}</TableCell>
                  <TableCell>
                    {event.actor?.name ?? intl.formatMessage({ id: 'devices.keys.by_system' })}
                  </TableCell>
                  {canRevoke && (
                    <TableCell>
                      {event.in_force && (
                        <Button size="small" color="error" onClick={() => setRevoking(event)}>
                          {intl.formatMessage({ id: 'devices.keys.revoke' })}
                        </Button>
                      )}
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </Box>
      )}
      {revoking && <RevokeDialog deviceId={deviceId} event={revoking} onClose={() => setRevoking(null)} />}
    </ListPanel>
  );
}
