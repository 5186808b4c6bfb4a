import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemText,
  TextField,
  Typography,
} from '@mui/material';
import { type FormEvent, useState } from 'react';
import { useIntl } from 'react-intl';
import { PageError, PagePending } from '#client/components/route-fallbacks.tsx';
import { SecondFactorCodeField } from '#client/components/second-factor.tsx';
import { ApiError } from '#client/lib/api-client.ts';
import { formatDateTime } from '#client/lib/dates.ts';
import { translateValidation } from '#client/lib/intl.tsx';
import { passkeysSupported } from '#client/lib/passkeys.ts';
import { toast } from '#client/lib/toasts.tsx';
import { type Passkey, useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from './api/passkeys';
import { useSecondFactor } from './api/second-factor';
import { CurrentPasswordField } from './current-password-field';
import { factorProof, fieldErrors } from './factor-proof';

type Stage =
  | { kind: 'closed' }
  | { kind: 'add' }
  | { kind: 'rename'; passkey: Passkey }
  | { kind: 'remove'; passkey: Passkey };

const TITLES = {
  add: 'passkeys.add',
  rename: 'passkeys.rename.title',
  remove: 'passkeys.remove.title',
} as const;

/**
 * Passkeys and security keys in the profile (docs/accounts.md §6): the user's passkeys by name, with
 * when each was added and last used; adding one (the password again, and a proof of the factor in
 * force), renaming and removing one.
 */
export function PasskeysCard() {
  const intl = useIntl();
  const list = usePasskeys();
  const status = useSecondFactor();
  const add = useAddPasskey();
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [stage, setStage] = useState<Stage>({ kind: 'closed' });
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const supported = passkeysSupported();
  const busy = add.isPending || rename.isPending || remove.isPending;
  const needsCode = status.data?.totp === true && stage.kind !== 'rename';

  const open = (next: Stage) => {
    setStage(next);
    setName(next.kind === 'rename' ? next.passkey.name : '');
    setPassword('');
    setCode('');
    setErrors({});
  };
  const close = () => open({ kind: 'closed' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      if (stage.kind === 'rename') {
        await rename.mutateAsync({ id: stage.passkey.id, name: name.trim() });
        toast.success({ id: 'passkeys.renamed' });
      } else if (stage.kind === 'add') {
        const proof = await factorProof(status.data, password, code);
        await add.mutateAsync({ ...proof, name: name.trim() });
        toast.success({ id: 'passkeys.added' });
      } else if (stage.kind === 'remove') {
        const proof = await factorProof(status.data, password, code);
        await remove.mutateAsync({ ...proof, id: stage.passkey.id });
        toast.success({ id: 'passkeys.removed' });
      }
      close();
    } catch (error) {
      const { passkey, credential, ...fields } = fieldErrors(error);
      const general = passkey ?? credential;
      if (general) fields._ = general;
      // Not an answer of the server: the browser's passkey dialog was closed or timed out.
      if (Object.keys(fields).length === 0)
        fields._ = error instanceof ApiError ? error.message : 'passkeys.dismissed';
      setErrors(fields);
    }
  };

  const message = (field: string) => (errors[field] ? translateValidation(intl, errors[field]) : undefined);
  const passkeys = list.data ?? [];

  return (
    <Card component="section" aria-labelledby="profile-passkeys-title">
      <CardContent>
        <Typography id="profile-passkeys-title" variant="h6" component="h2">
          {intl.formatMessage({ id: 'passkeys.title' })}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {intl.formatMessage({ id: 'passkeys.text' })}
        </Typography>
        {list.isPending && <PagePending />}
        {list.isError && <PageError />}
        {list.data && passkeys.length === 0 && (
          <Typography variant="body2">{intl.formatMessage({ id: 'passkeys.none' })}</Typography>
        )}
        {passkeys.length > 0 && (
          <List aria-labelledby="profile-passkeys-title" data-testid="passkeys-list">
            {passkeys.map((passkey) => (
              <ListItem key={passkey.id} divider disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
                <ListItemText
                  sx={{ flex: '1 1 240px' }}
                  primary={passkey.name}
                  secondary={[
                    intl.formatMessage(
                      { id: 'passkeys.added_on' },
                      { date: formatDateTime(passkey.created_at) },
                    ),
                    passkey.last_used_at
                      ? intl.formatMessage(
                          { id: 'passkeys.last_used' },
                          { date: formatDateTime(passkey.last_used_at) },
                        )
                      : intl.formatMessage({ id: 'passkeys.never_used' }),
                  ].join(' · ')}
                />
                <Box sx={{ display: 'flex', gap: 1 }}>
                  <Button
                    size="small"
                    aria-label={intl.formatMessage({ id: 'passkeys.rename.label' }, { name: passkey.name })}
                    onClick={() => open({ kind: 'rename', passkey })}
                  >
                    {intl.formatMessage({ id: 'passkeys.rename' })}
                  </Button>
                  <Button
                    size="small"
                    color="error"
                    aria-label={intl.formatMessage({ id: 'passkeys.remove.label' }, { name: passkey.name })}
                    onClick={() => open({ kind: 'remove', passkey })}
                  >
                    {intl.formatMessage({ id: 'passkeys.remove' })}
                  </Button>
                </Box>
              </ListItem>
            ))}
          </List>
        )}
        {!supported && (
          <Alert severity="info" sx={{ my: 1 }}>
            {intl.formatMessage({ id: 'passkeys.unsupported' })}
          </Alert>
        )}
        <Box sx={{ display: 'flex', justifyContent: 'flex-end', mt: 2 }}>
          <Button variant="contained" disabled={!supported} onClick={() => open({ kind: 'add' })}>
            {intl.formatMessage({ id: 'passkeys.add' })}
          </Button>
        </Box>
      </CardContent>
      <Dialog open={stage.kind !== 'closed'} onClose={close} aria-labelledby="passkey-dialog-title" fullWidth>
        {stage.kind !== 'closed' && (
          <>
            <DialogTitle id="passkey-dialog-title">
              {intl.formatMessage({ id: TITLES[stage.kind] })}
            </DialogTitle>
            <DialogContent>
              <Box component="form" id="passkey-form" onSubmit={(event) => void submit(event)} noValidate>
                {stage.kind === 'remove' && (
                  <Typography variant="body2">
                    {intl.formatMessage({ id: 'passkeys.remove.text' }, { name: stage.passkey.name })}
                  </Typography>
                )}
                {stage.kind !== 'remove' && (
                  <TextField
                    fullWidth
                    margin="normal"
                    name="name"
                    label={intl.formatMessage({ id: 'passkeys.name' })}
                    value={name}
                    onChange={(event) => setName(event.target.value)}
                    error={Boolean(errors.name)}
                    helperText={message('name') ?? intl.formatMessage({ id: 'passkeys.name.help' })}
                    slotProps={{ htmlInput: { maxLength: 64 } }}
                    required
                    autoFocus
                  />
                )}
                {stage.kind !== 'rename' && (
                  <>
                    <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
                      {intl.formatMessage({ id: 'passkeys.prove' })}
                    </Typography>
                    <CurrentPasswordField
                      value={password}
                      onChange={setPassword}
                      error={errors.current_password}
                      autoFocus={stage.kind === 'remove'}
                    />
                    {needsCode && (
                      <SecondFactorCodeField value={code} onChange={setCode} error={message('code')} />
                    )}
                  </>
                )}
                {errors._ && (
                  <Alert severity="error" sx={{ mt: 1 }}>
                    {translateValidation(intl, errors._)}
                  </Alert>
                )}
              </Box>
            </DialogContent>
            <DialogActions>
              <Button onClick={close}>{intl.formatMessage({ id: 'common.cancel' })}</Button>
              <Button
                type="submit"
                form="passkey-form"
                variant="contained"
                color={stage.kind === 'remove' ? 'error' : 'primary'}
                disabled={
                  busy ||
                  (stage.kind !== 'remove' && name.trim() === '') ||
                  (stage.kind !== 'rename' && password === '') ||
                  (needsCode && code.trim() === '')
                }
                startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
              >
                {intl.formatMessage({
                  id:
                    stage.kind === 'remove'
                      ? 'passkeys.remove'
                      : stage.kind === 'add'
                        ? 'passkeys.add'
                        : 'passkeys.rename',
                })}
              </Button>
            </DialogActions>
          </>
        )}
      </Dialog>
    </Card>
  );
}
